import { useState } from 'react';
import { Link } from 'wouter';
import { ZSignupForm } from '@contracts/schemas/auth';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';
import { AuthLayout } from '../components/auth-layout';
import { useAfterAuth } from '../hooks/use-after-auth';

type TSignupField = 'name' | 'email' | 'password' | 'confirmPassword';

const FIELDS: { key: TSignupField; id: string; label: string; hint: string; type: string; autoComplete: string }[] = [
  {
    key: 'name',
    id: 'signup-name',
    label: 'Full Name',
    hint: 'At least 3 characters, as your colleagues know you',
    type: 'text',
    autoComplete: 'name',
  },
  {
    key: 'email',
    id: 'signup-email',
    label: 'Email Address',
    hint: 'Used to sign in and to reset your password',
    type: 'email',
    autoComplete: 'email',
  },
  {
    key: 'password',
    id: 'signup-password',
    label: 'Password',
    hint: 'At least 8 characters',
    type: 'password',
    autoComplete: 'new-password',
  },
  {
    key: 'confirmPassword',
    id: 'signup-confirm',
    label: 'Confirm Password',
    hint: 'Type the same password again',
    type: 'password',
    autoComplete: 'new-password',
  },
];

export function SignupPage() {
  const [values, setValues] = useState<Record<TSignupField, string>>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const toast = useToast();
  const afterAuth = useAfterAuth();
  const signup = trpc.auth.signup.useMutation();

  const submit = () => {
    const parsed = validate(ZSignupForm, values);
    if (!parsed.ok) return setError({ field: parsed.field, message: parsed.message });
    setError(null);
    const { name, email, password } = parsed.data;
    signup.mutate(
      { name, email, password },
      {
        onSuccess: (res) => {
          if (!res.user) return toast.error('Signup failed. Please try again.');
          toast.success(res.message || 'Account created successfully!');
          afterAuth(res.user);
        },
        onError: (err) => toast.error(errorText(err, 'Signup failed. Email might already be in use.')),
      },
    );
  };

  return (
    <AuthLayout
      brandTitle="Join Chest Doctor AI"
      brandText="Create an account to analyse chest X-rays and discuss the findings in a chat."
      title="Create Account"
      subtitle="Sign up to get started"
    >
      <Form onSubmit={submit}>
        {FIELDS.map((f) => (
          <TextField
            key={f.key}
            id={f.id}
            label={f.label}
            hint={f.hint}
            type={f.type}
            autoComplete={f.autoComplete}
            value={values[f.key]}
            error={error?.field === f.key ? error.message : null}
            onChange={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ))}
        {error && !FIELDS.some((f) => f.key === error.field) ? (
          <p className="field-error" role="alert">
            {error.message}
          </p>
        ) : null}
        <button type="submit" className="button button-primary button-block" disabled={signup.isPending}>
          {signup.isPending ? 'Creating account...' : 'Create Account'}
        </button>
      </Form>
      <div className="auth-links">
        <p>
          Already have an account? <Link href="/login">Log in</Link>
        </p>
      </div>
    </AuthLayout>
  );
}
