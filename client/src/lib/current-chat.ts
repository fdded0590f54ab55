import { navigate, useHistoryState, useSearch } from 'wouter/use-browser-location';
import type { TProfile } from '@contracts/schemas/profile';
import { setLocalChat } from './local-chat';

/**
 * The one convention the sidebar and the chat home share for "which chat is open":
 * - `/chat?chat=<id>`: that chat is current (the id is a random uuid, never patient data);
 * - `/chat?new=1` with `history.state.profile`: the 'Start Your Analysis' form for that profile.
 *   The profile rides in history state, not the URL, so no patient name ever lands in a URL,
 *   a server log or the browser's address bar;
 * - `/chat` alone: no current chat (the welcome state).
 */
export const NEW_CHAT_PARAM = 'new';
export const CHAT_PARAM = 'chat';

export interface TNewChatState {
  profile: TProfile;
}

/** The current chat's id from `?chat=`, or null. */
export function useCurrentChatId(): string | null {
  const search = useSearch();
  return new URLSearchParams(search).get(CHAT_PARAM) || null;
}

/** True on `/chat?new=1` (the form for a new chat). */
export function useIsNewChat(): boolean {
  const search = useSearch();
  return new URLSearchParams(search).get(NEW_CHAT_PARAM) === '1';
}

/** The profile picked in the 'Select Profile for New Chat' modal, while `?new=1` is shown. */
export function useNewChatProfile(): TProfile | null {
  const state = useHistoryState<Partial<TNewChatState> | null>();
  const isNew = useIsNewChat();
  return isNew && state?.profile ? state.profile : null;
}

export function openChat(chatId: string, opts: { replace?: boolean } = {}): void {
  navigate(`/chat?${CHAT_PARAM}=${encodeURIComponent(chatId)}`, { replace: opts.replace ?? false });
}

export function startNewChat(profile: TProfile): void {
  setLocalChat(profile);
  navigate(`/chat?${NEW_CHAT_PARAM}=1`, { state: { profile } satisfies TNewChatState });
}

/** Drops the selection (e.g. the current chat was deleted): back to the welcome state. */
export function closeChat(opts: { replace?: boolean } = {}): void {
  navigate('/chat', { replace: opts.replace ?? true });
}

/**
 * After the profile has been used (the form is prefilled), part B may clear it from history
 * state, as the spec says ("a profile passed via navigation state, which is then cleared").
 */
export function clearNewChatProfile(): void {
  history.replaceState(null, '', location.pathname + location.search);
}
