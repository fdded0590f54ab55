import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { navigate, useSearch } from 'wouter/use-browser-location';
import { AUTH_MESSAGES, ZResetPasswordForm } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorInfo, errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';
import { AuthLayout } from '../components/auth-layout';

export const MISSING_TOKEN = 'Invalid or missing reset token. Please request a new password reset link.';
export const EXPIRED_LINK = 'Reset link has expired or is invalid. Please request a new one.';
/** Section 9: a missing or bad reset link goes to /forgot-password after 3 s. */
const REDIRECT_MS = 3000;
/**
 * The links the server mails carry a base64url token. Anything else (a mail client that cut the
 * link or appended characters to it) is a bad link: section 5's 'Invalid reset link', without
 * sending the mangled token to the server.
 */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

function linkProblem(token: string): string | null {
  if (!token) return MISSING_TOKEN;
  return TOKEN_SHAPE.test(token) ? null : AUTH_MESSAGES.resetToken;
}

export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [linkError, setLinkError] = useState<string | null>(() => linkProblem(token));
  const toast = useToast();
  const reset = trpc.auth.resetPassword.useMutation();
  const problem = linkProblem(token);
  const usable = problem === null;

  useEffect(() => {
    if (!linkError) return;
    const timer = setTimeout(() => navigate('/forgot-password', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [linkError]);
  // Section 8: errors show as toasts, this one beside the inline alert (the store drops a repeat).
  useEffect(() => {
    if (problem) toast.error(problem);
  }, [problem, toast]);

  const submit = () => {
    if (problem) return setLinkError(problem);
    const parsed = validate(ZResetPasswordForm, { token, ...values });
    if (!parsed.ok) return setError({ field: parsed.field, message: parsed.message });
    setError(null);
    reset.mutate(
      { token, password: parsed.data.password },
      {
        onSuccess: (res) => {
          toast.success(res.message || 'Password reset successfully! Please login with your new password.');
          navigate('/login', { replace: true });
        },
        onError: (err) => {
          const { status } = errorInfo(err);
          if (status === 400 || status === 401) {
            setLinkError(EXPIRED_LINK);
            toast.error(EXPIRED_LINK);
          } else {
            toast.error(errorText(err, 'Failed to reset password. Please try again.'));
          }
        },
      },
    );
  };

  const field = (key: 'password' | 'confirmPassword', id: string, label: string, hint: string) => (
    <TextField
      id={id}
      label={label}
      hint={hint}
      type="password"
      autoComplete="new-password"
      value={values[key]}
      disabled={!usable}
      error={error?.field === key ? error.message : null}
      onChange={(value) => setValues((v) => ({ ...v, [key]: value }))}
    />
  );

  return (
    <AuthLayout
      brandTitle="Create New Password"
      brandText="Choose a strong password you do not use anywhere else. Saving it signs the account out everywhere else."
      title="Reset Password"
      subtitle="Enter your new password below"
    >
      {linkError ? (
        <div className="alert alert-error" role="alert">
          <p>{linkError}</p>
          <p className="alert-note">Redirecting to the reset request page...</p>
        </div>
      ) : null}
      <Form onSubmit={submit}>
        {field('password', 'reset-password', 'New Password', 'Minimum 8 characters')}
        {field('confirmPassword', 'reset-confirm', 'Confirm Password', 'Minimum 8 characters, the same as above')}
        {error && error.field !== 'password' && error.field !== 'confirmPassword' ? (
          <p className="field-error" role="alert">
            {error.message}
          </p>
        ) : null}
        <button type="submit" className="button button-primary button-block" disabled={reset.isPending || !usable}>
          {reset.isPending ? 'Resetting...' : 'Save New Password'}
        </button>
      </Form>
      <div className="auth-links">
        <Link href="/login">Back to Login</Link>
      </div>
    </AuthLayout>
  );
}
