import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { AUTH_MESSAGES, ZCheckEmailInput, ZLoginInput } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import { AuthLayout } from '../components/auth-layout';
import { SsoButton, SsoLinkConfirm } from '../components/sso-sign-in';
import { useAfterAuth } from '../hooks/use-after-auth';
import { useSsoOptions } from '../hooks/use-sso-options';
import { clearSsoParams, ssoErrorFrom } from '../lib/sso-notice';

const LOGIN_FAILED = 'Login failed. Please try again.';

/** Two-step login (section 2): email, then password, with 'Back to email'. */
export function LoginPage() {
  const [step, setStep] = useState<'email' | 'password'>('email');
  const sso = useSsoOptions();
  // What the SSO callback sent back (docs/sso.md): read once, then dropped from the address.
  const [ssoError] = useState(() => ssoErrorFrom(window.location.search));
  const [linking] = useState(() => new URLSearchParams(window.location.search).get('sso_link') === '1');
  useEffect(() => clearSsoParams(), []);
  const toast = useToast();
  const afterAuth = useAfterAuth();
  // Continue and 'Back to email' replace the field the user was in: focus follows to the new
  // one. Only after those clicks; on arrival the page leaves focus where the browser puts it.
  const stepInput = useRef<HTMLInputElement>(null);
  const focusStep = useRef(false);
  useEffect(() => {
    if (!focusStep.current) return;
    focusStep.current = false;
    stepInput.current?.focus();
  }, [step]);
  const goTo = (next: 'email' | 'password') => {
    focusStep.current = true;
    setStep(next);
  };

  const emailForm = useZodForm({
    schema: ZCheckEmailInput,
    initialValues: { email: '' },
    mutation: trpc.auth.checkEmail.useMutation(),
    variables: (data) => data,
    onSuccess: () => goTo('password'),
    errorToast: { fallback: LOGIN_FAILED },
  });
  const email = emailForm.values.email;
  // The password step validates and sends the email of the first step with it.
  const passwordForm = useZodForm({
    schema: ZLoginInput,
    initialValues: { password: '' },
    toInput: ({ password }) => ({ email, password }),
    mutation: trpc.auth.login.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      if (!res.user) return toast.error(LOGIN_FAILED);
      toast.success(res.message || AUTH_MESSAGES.loggedIn);
      afterAuth(res.user);
    },
    errorToast: { fallback: LOGIN_FAILED, overrides: { '401': AUTH_MESSAGES.badCredentials } },
  });
  const form = step === 'email' ? emailForm : passwordForm;

  return (
    <AuthLayout
      brandTitle="Welcome Back"
      brandText="Sign in to continue your chest X-ray analyses and follow-up conversations."
      title={step === 'email' ? 'Sign In' : 'Enter Your Password'}
      subtitle={
        !sso.passwordLogin
          ? 'Use your hospital account to continue'
          : step === 'email'
            ? 'Enter your email address to continue'
            : `Signing in as ${email}`
      }
    >
      {ssoError ? (
        <div className="alert alert-error" role="alert">
          <p>{ssoError}</p>
        </div>
      ) : null}
      {linking ? <SsoLinkConfirm /> : null}
      {sso.sso && !linking ? <SsoButton buttonText={sso.buttonText} /> : null}
      {sso.passwordLogin && !linking ? passwordLogin() : null}
    </AuthLayout>
  );

  function passwordLogin() {
    return (
      <>
        {sso.sso ? <p className="auth-divider">or with your e-mail and password</p> : null}
        <Form onSubmit={form.submit}>
          {step === 'email' ? (
            <TextField
              id="login-email"
              label="Email Address"
              type="email"
              autoComplete="email"
              inputRef={stepInput}
              value={email}
              error={form.error?.message ?? null}
              onChange={(value) => emailForm.setValue('email', value)}
            />
          ) : (
            <TextField
              id="login-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              inputRef={stepInput}
              value={passwordForm.values.password}
              error={form.error?.message ?? null}
              onChange={(value) => passwordForm.setValue('password', value)}
            />
          )}
          {step === 'email' ? (
            <button type="submit" className="button button-primary button-block" disabled={form.pending}>
              {form.pending ? 'Checking...' : 'Continue'}
            </button>
          ) : (
            <>
              <button type="submit" className="button button-primary button-block" disabled={form.pending}>
                {form.pending ? 'Signing in...' : 'Sign In'}
              </button>
              <button
                type="button"
                className="button button-link"
                onClick={() => {
                  goTo('email');
                  passwordForm.setValues({ password: '' });
                  passwordForm.setError(null);
                }}
              >
                Back to email
              </button>
            </>
          )}
        </Form>
        <div className="auth-links">
          <Link href="/forgot-password">Forgot password?</Link>
          <p>
            Don&apos;t have an account? <Link href="/signup">Sign up</Link>
          </p>
        </div>
      </>
    );
  }
}
