import { useQuery } from '@tanstack/react-query';
import { ZSsoOptions, type TSsoOptions } from '@contracts/schemas/sso';

/** Before SSO is known the page offers the password form, as it always did (no flash of a button). */
const PASSWORDS_ONLY: TSsoOptions = { sso: false, buttonText: '', passwordLogin: true };

/**
 * What the login page offers: the SSO button (with OIDC_BUTTON_TEXT) and whether the password
 * form shows (PASSWORD_LOGIN). A plain REST call: the server answers without asking the IdP.
 */
export function useSsoOptions(): TSsoOptions {
  const q = useQuery({
    queryKey: ['sso-options'],
    staleTime: 10 * 60_000,
    queryFn: async () => {
      const res = await fetch('/api/auth/oidc/options', { credentials: 'same-origin' });
      if (!res.ok) return PASSWORDS_ONLY;
      return ZSsoOptions.parse(await res.json());
    },
  });
  return q.data ?? PASSWORDS_ONLY;
}
