import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { pushToast } from '../../../components/toast/toast-store';
import { isUnauthorized } from '../../../lib/error-text';
import { clearLocalSession, goToLogin } from '../../../lib/session';
import { markSignedOut } from '../../../lib/signed-out-mark';
import { trpc } from '../../../lib/trpc';

/**
 * Section 4: logout always clears the local session and goes to /login, even if the server
 * call fails; a session from SSO goes to the IdP's end-session page instead (issue 34). The server clears the HttpOnly cookie when it answers; when it does not, the
 * signed-out mark (lib/signed-out-mark.ts) keeps this browser signed out until the retry works.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const logout = trpc.settings.logout.useMutation();
  const run = useCallback(async () => {
    let revoked = true;
    let idpLogout: string | null = null;
    try {
      idpLogout = (await logout.mutateAsync()).redirectUrl;
    } catch (err) {
      // A 401 means the session is gone already; anything else leaves the cookie alive.
      revoked = isUnauthorized(err);
    }
    clearLocalSession(queryClient);
    if (!revoked) markSignedOut();
    // An SSO session: end the hospital sign-in too (the IdP comes back to /login afterwards).
    if (idpLogout) return void window.location.assign(idpLogout);
    goToLogin();
    pushToast('success', 'Logged out successfully');
  }, [logout, queryClient]);
  return { logout: run, pending: logout.isPending };
}

/**
 * The next visit after a logout whose server call failed: retry it, then /login either way
 * (the mark stays until a retry reaches the server).
 */
export function useFinishPendingLogout(pending: boolean) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  useEffect(() => {
    if (!pending) return;
    let cancelled = false;
    void utils.client.settings.logout
      .mutate()
      .then(
        () => true,
        (err: unknown) => isUnauthorized(err),
      )
      .then((revoked) => {
        if (cancelled) return;
        clearLocalSession(queryClient);
        if (!revoked) markSignedOut();
        goToLogin();
      });
    return () => {
      cancelled = true;
    };
  }, [pending, queryClient, utils]);
}

/** After the account is deleted: forget everything locally and go to /login. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearLocalSession(queryClient);
    goToLogin();
  }, [queryClient]);
}
