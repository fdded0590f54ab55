import { SSO_MESSAGES, ZSsoRefusal } from '@contracts/schemas/sso';

/**
 * The words for the code the SSO callback put in the address (`?sso_error=no_role`): only a
 * known code is shown, so a crafted link cannot put its own text on the page.
 */
export function ssoErrorFrom(search: string): string | null {
  const code = ZSsoRefusal.safeParse(new URLSearchParams(search).get('sso_error'));
  return code.success ? SSO_MESSAGES[code.data] : null;
}

/** Drops the callback's codes from the address once shown, so a reload does not repeat them. */
export function clearSsoParams(): void {
  const url = new URL(window.location.href);
  for (const key of ['sso_error', 'sso_link', 'sso_linked']) url.searchParams.delete(key);
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}
