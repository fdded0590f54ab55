import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { pushToast } from '../../../components/toast/toast-store';
import { clearLocalSession, goToLogin } from '../../../lib/session';
import { trpc } from '../../../lib/trpc';

/**
 * Section 4: logout always clears the local session and goes to /login, even if the server
 * call fails (the server also clears the HttpOnly cookie when it answers).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const logout = trpc.settings.logout.useMutation();
  const run = useCallback(async () => {
    try {
      await logout.mutateAsync();
    } catch {
      // Ignored on purpose: the local session is cleared either way.
    }
    clearLocalSession(queryClient);
    goToLogin();
    pushToast('success', 'Logged out successfully');
  }, [logout, queryClient]);
  return { logout: run, pending: logout.isPending };
}

/** After the account is deleted: forget everything locally and go to /login. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearLocalSession(queryClient);
    goToLogin();
  }, [queryClient]);
}
