import { Link } from 'wouter';
import { AUTH_MESSAGES, ZSignupForm } from '@contracts/schemas/auth';
import { Form, FormError } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
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

const FIELD_KEYS = FIELDS.map((f) => f.key);

export function SignupPage() {
  const toast = useToast();
  const afterAuth = useAfterAuth();
  const form = useZodForm({
    schema: ZSignupForm,
    initialValues: { name: '', email: '', password: '', confirmPassword: '' } satisfies Record<TSignupField, string>,
    mutation: trpc.auth.signup.useMutation(),
    variables: ({ name, email, password }) => ({ name, email, password }),
    onSuccess: (res) => {
      if (!res.user) return toast.error('Signup failed. Please try again.');
      toast.success(res.message || AUTH_MESSAGES.signedUp);
      afterAuth(res.user);
    },
    errorToast: { fallback: AUTH_MESSAGES.emailTaken },
  });

  return (
    <AuthLayout
      brandTitle="Join Chest Doctor AI"
      brandText="Create an account to analyse chest X-rays and discuss the findings in a chat."
      title="Create Account"
      subtitle="Sign up to get started"
    >
      <Form onSubmit={form.submit}>
        {FIELDS.map((f) => (
          <TextField
            key={f.key}
            id={f.id}
            label={f.label}
            hint={f.hint}
            type={f.type}
            autoComplete={f.autoComplete}
            value={form.values[f.key]}
            error={form.fieldError(f.key)}
            onChange={(value) => form.setValue(f.key, value)}
          />
        ))}
        <FormError message={form.otherError(FIELD_KEYS)} />
        <button type="submit" className="button button-primary button-block" disabled={form.pending}>
          {form.pending ? 'Creating account...' : 'Create Account'}
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
