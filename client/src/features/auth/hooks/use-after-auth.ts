import { useCallback } from 'react';
import { navigate, useHistoryState } from 'wouter/use-browser-location';
import { safeReturnPath, type TLoginState } from '../../../lib/session';
import { clearSignedOutMark } from '../../../lib/signed-out-mark';
import { trpc } from '../../../lib/trpc';

/** Section 2: after login or signup, go on (to the remembered origin, else /chat/profiles) after 100 ms. */
export const AFTER_AUTH_DELAY_MS = 100;

export function useAfterAuth() {
  const utils = trpc.useUtils();
  const state = useHistoryState<TLoginState | null>();
  const from = state?.from;
  return useCallback(
    (user: { id: string; name: string; email: string }) => {
      // A new session replaced the cookie a failed logout left behind (lib/signed-out-mark.ts).
      clearSignedOutMark();
      utils.auth.me.setData(undefined, { success: true, user });
      setTimeout(() => navigate(safeReturnPath(from), { replace: true }), AFTER_AUTH_DELAY_MS);
    },
    [utils, from],
  );
}
