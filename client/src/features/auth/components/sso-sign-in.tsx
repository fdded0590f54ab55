import { useState } from 'react';
import { SSO_MESSAGES } from '@contracts/schemas/sso';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { trpc } from '../../../lib/trpc';
import { useAfterAuth } from '../hooks/use-after-auth';

/** "Sign in with <OIDC_BUTTON_TEXT>": a full navigation, since the IdP's page takes over the tab. */
export function SsoButton({ buttonText }: { buttonText: string }) {
  return (
    <a className="button button-secondary button-block sso-button" href="/api/auth/oidc/login">
      Sign in with {buttonText}
    </a>
  );
}

/**
 * The one-time password confirmation that links a hospital sign-in to the account with the same
 * (IdP-verified) e-mail. Which link is pending travels in an http-only cookie, not in the page.
 */
export function SsoLinkConfirm() {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const utils = trpc.useUtils();
  const afterAuth = useAfterAuth();

  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/oidc/link', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      if (!res.ok) {
        setError(res.status === 401 ? 'Incorrect password.' : (body.message ?? SSO_MESSAGES.bad_response));
        return;
      }
      const me = await utils.auth.me.fetch();
      afterAuth(me.user);
    } catch {
      setError(SSO_MESSAGES.bad_response);
    } finally {
      setPending(false);
    }
  };

  return (
    <Form onSubmit={() => void submit()}>
      <p className="muted">{SSO_MESSAGES.linkConfirm}</p>
      <TextField
        id="sso-link-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={error}
        onChange={setPassword}
      />
      <button type="submit" className="button button-primary button-block" disabled={pending || !password}>
        {pending ? 'Linking...' : 'Link and sign in'}
      </button>
    </Form>
  );
}
