import { useState } from 'react';
import { Link } from 'wouter';
import { ZForgotPasswordInput } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';
import { AuthLayout } from '../components/auth-layout';

/** Request a reset link; then the 'Check Your Email' confirmation (section 4: form, then sent). */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const toast = useToast();
  const forgot = trpc.auth.forgotPassword.useMutation();

  const submit = () => {
    const parsed = validate(ZForgotPasswordInput, { email });
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    forgot.mutate(parsed.data, {
      onSuccess: (res) => {
        toast.success(res.message || 'Password reset link sent to your email!');
        setSent(true);
      },
      onError: (err) => toast.error(errorText(err, 'Failed to send reset link. Please try again.')),
    });
  };

  return (
    <AuthLayout
      brandTitle="Reset Your Password"
      brandText="We will email you a link to choose a new password. The link works once and expires."
      title={sent ? 'Check Your Email' : 'Forgot Password?'}
      subtitle={sent ? undefined : "Enter your email address and we'll send you a reset link"}
    >
      {sent ? (
        <div className="auth-sent" role="status">
          <p>
            If an account exists for <strong>{email.trim()}</strong>, a password reset link is on its way. Open it to
            choose a new password.
          </p>
          <Link href="/login" className="button button-primary button-block">
            Back to Login
          </Link>
        </div>
      ) : (
        <>
          <Form onSubmit={submit}>
            <TextField
              id="forgot-email"
              label="Email Address"
              type="email"
              autoComplete="email"
              value={email}
              error={error}
              onChange={setEmail}
            />
            <button type="submit" className="button button-primary button-block" disabled={forgot.isPending}>
              {forgot.isPending ? 'Sending...' : 'Send Reset Link'}
            </button>
          </Form>
          <div className="auth-links">
            <Link href="/login">Back to Login</Link>
          </div>
        </>
      )}
    </AuthLayout>
  );
}
