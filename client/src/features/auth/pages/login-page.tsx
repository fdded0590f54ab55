import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ZCheckEmailInput, ZLoginInput } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';
import { AuthLayout } from '../components/auth-layout';
import { useAfterAuth } from '../hooks/use-after-auth';

const LOGIN_FAILED = 'Login failed. Please try again.';

/** Two-step login (section 2): email, then password, with 'Back to email'. */
export function LoginPage() {
  const [step, setStep] = useState<'email' | 'password'>('email');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const afterAuth = useAfterAuth();
  const checkEmail = trpc.auth.checkEmail.useMutation();
  const login = trpc.auth.login.useMutation();
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

  const submitEmail = () => {
    const parsed = validate(ZCheckEmailInput, { email });
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    checkEmail.mutate(parsed.data, {
      onSuccess: () => goTo('password'),
      onError: (err) => toast.error(errorText(err, LOGIN_FAILED)),
    });
  };

  const submitPassword = () => {
    const parsed = validate(ZLoginInput, { email, password });
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    login.mutate(parsed.data, {
      onSuccess: (res) => {
        if (!res.user) return toast.error(LOGIN_FAILED);
        toast.success(res.message || 'Login successful!');
        afterAuth(res.user);
      },
      onError: (err) => toast.error(errorText(err, LOGIN_FAILED, { '401': 'Invalid email or password' })),
    });
  };

  return (
    <AuthLayout
      brandTitle="Welcome Back"
      brandText="Sign in to continue your chest X-ray analyses and follow-up conversations."
      title={step === 'email' ? 'Sign In' : 'Enter Your Password'}
      subtitle={step === 'email' ? 'Enter your email address to continue' : `Signing in as ${email}`}
    >
      <Form onSubmit={step === 'email' ? submitEmail : submitPassword}>
        {step === 'email' ? (
          <TextField
            id="login-email"
            label="Email Address"
            type="email"
            autoComplete="email"
            inputRef={stepInput}
            value={email}
            error={error}
            onChange={setEmail}
          />
        ) : (
          <TextField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            inputRef={stepInput}
            value={password}
            error={error}
            onChange={setPassword}
          />
        )}
        {step === 'email' ? (
          <button type="submit" className="button button-primary button-block" disabled={checkEmail.isPending}>
            {checkEmail.isPending ? 'Checking...' : 'Continue'}
          </button>
        ) : (
          <>
            <button type="submit" className="button button-primary button-block" disabled={login.isPending}>
              {login.isPending ? 'Signing in...' : 'Sign In'}
            </button>
            <button
              type="button"
              className="button button-link"
              onClick={() => {
                goTo('email');
                setPassword('');
                setError(null);
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
    </AuthLayout>
  );
}
