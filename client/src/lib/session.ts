import type { QueryClient } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { clearLocalChat } from './local-chat';

/** Where /login sends the user back to after signing in (history state, never the URL). */
export interface TLoginState {
  from?: string;
}

/**
 * Forgets everything this tab knows about the account: React Query caches (chats, profiles, the
 * user), local and session storage. The session cookie is HttpOnly: the server clears it on
 * logout, and after a 401 it is already worthless.
 */
export function clearLocalSession(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  queryClient.clear();
  clearLocalChat();
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // Storage can be disabled (private mode policies); nothing was stored there then.
  }
}

export function goToLogin(from?: string): void {
  navigate('/login', { replace: true, state: from ? ({ from } satisfies TLoginState) : null });
}

/** Only same-app paths inside /chat are followed after login (no open redirect via state). */
export function safeReturnPath(from: unknown): string {
  return typeof from === 'string' && /^\/chat(\/|\?|$)/.test(from) ? from : '/chat/profiles';
}
