import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { navigate, useSearch } from 'wouter/use-browser-location';
import { AUTH_MESSAGES, ZResetPasswordForm } from '@contracts/schemas/auth';
import { Form, FormError } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorInfo, errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import { AuthLayout } from '../components/auth-layout';

export const MISSING_TOKEN = 'Invalid or missing reset token. Please request a new password reset link.';
export const EXPIRED_LINK = AUTH_MESSAGES.resetInvalid;
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
  const [linkError, setLinkError] = useState<string | null>(() => linkProblem(token));
  const toast = useToast();
  const form = useZodForm({
    schema: ZResetPasswordForm,
    initialValues: { password: '', confirmPassword: '' },
    toInput: (values) => ({ token, ...values }),
    mutation: trpc.auth.resetPassword.useMutation(),
    variables: ({ password }) => ({ token, password }),
    onSuccess: (res) => {
      toast.success(res.message || AUTH_MESSAGES.resetDone);
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
  });
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

  const submit = () => (problem ? setLinkError(problem) : form.submit());

  const field = (key: 'password' | 'confirmPassword', id: string, label: string, hint: string) => (
    <TextField
      id={id}
      label={label}
      hint={hint}
      type="password"
      autoComplete="new-password"
      value={form.values[key]}
      disabled={!usable}
      error={form.fieldError(key)}
      onChange={(value) => form.setValue(key, value)}
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
        <FormError message={form.otherError(['password', 'confirmPassword'])} />
        <button type="submit" className="button button-primary button-block" disabled={form.pending || !usable}>
          {form.pending ? 'Resetting...' : 'Save New Password'}
        </button>
      </Form>
      <div className="auth-links">
        <Link href="/login">Back to Login</Link>
      </div>
    </AuthLayout>
  );
}
