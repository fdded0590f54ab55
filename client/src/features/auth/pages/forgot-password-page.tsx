import { useState } from 'react';
import { Link } from 'wouter';
import { AUTH_MESSAGES, ZForgotPasswordInput } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import { AuthLayout } from '../components/auth-layout';

/** Request a reset link; then the 'Check Your Email' confirmation (section 4: form, then sent). */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const toast = useToast();
  const form = useZodForm({
    schema: ZForgotPasswordInput,
    initialValues: { email: '' },
    mutation: trpc.auth.forgotPassword.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      toast.success(res.message || AUTH_MESSAGES.resetSent);
      setSent(true);
    },
    errorToast: { fallback: 'Failed to send reset link. Please try again.' },
  });
  const { email } = form.values;

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
          <Form onSubmit={form.submit}>
            <TextField
              id="forgot-email"
              label="Email Address"
              type="email"
              autoComplete="email"
              value={email}
              error={form.error?.message ?? null}
              onChange={(value) => form.setValue('email', value)}
            />
            <button type="submit" className="button button-primary button-block" disabled={form.pending}>
              {form.pending ? 'Sending...' : 'Send Reset Link'}
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
