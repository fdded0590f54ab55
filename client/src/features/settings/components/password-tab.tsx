import { useState } from 'react';
import { apiKeysRevokedText } from '@contracts/schemas/api-key';
import { ZChangePasswordInput, type TChangePasswordResult } from '@contracts/schemas/settings';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';

type TKey = 'current_password' | 'new_password' | 'confirm_password';
const EMPTY: Record<TKey, string> = { current_password: '', new_password: '', confirm_password: '' };
const FIELDS: { key: TKey; id: string; label: string; autoComplete: string; hint?: string }[] = [
  {
    key: 'current_password',
    id: 'settings-current-password',
    label: 'Current Password',
    autoComplete: 'current-password',
  },
  {
    key: 'new_password',
    id: 'settings-new-password',
    label: 'New Password',
    autoComplete: 'new-password',
    hint: 'At least 8 characters',
  },
  {
    key: 'confirm_password',
    id: 'settings-confirm-password',
    label: 'Confirm New Password',
    autoComplete: 'new-password',
  },
];

export function PasswordTab() {
  const [values, setValues] = useState(EMPTY);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [done, setDone] = useState<TChangePasswordResult | null>(null);
  const toast = useToast();
  const change = trpc.settings.changePassword.useMutation();

  const submit = () => {
    const parsed = validate(ZChangePasswordInput, values);
    if (!parsed.ok) return setError({ field: parsed.field, message: parsed.message });
    setError(null);
    setDone(null);
    change.mutate(parsed.data, {
      onSuccess: (res) => {
        toast.success('Password updated successfully!');
        setValues(EMPTY);
        setDone(res);
      },
      onError: (err) => {
        // 403 WRONG_PASSWORD (not 401, which would sign the user out).
        const text = errorText(err, 'Failed to update password', { WRONG_PASSWORD: 'Current password is incorrect' });
        toast.error(text);
        if (text === 'Current password is incorrect') setError({ field: 'current_password', message: text });
      },
    });
  };

  return (
    <Form className="settings-form" onSubmit={submit}>
      <h2 className="section-title">Change Password</h2>
      {FIELDS.map((f) => (
        <TextField
          key={f.key}
          id={f.id}
          label={f.label}
          hint={f.hint}
          type="password"
          autoComplete={f.autoComplete}
          value={values[f.key]}
          error={error?.field === f.key ? error.message : null}
          onChange={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
        />
      ))}
      <button type="submit" className="button button-primary" disabled={change.isPending}>
        {change.isPending ? 'Updating...' : 'Update Password'}
      </button>
      {done && <PasswordChangeNote done={done} />}
    </Form>
  );
}

/** What the change ended besides the old password, so nobody wonders why a script stopped working. */
function PasswordChangeNote({ done }: { done: TChangePasswordResult }) {
  return (
    <p className="settings-note" role="status" data-testid="password-change-note">
      {done.otherSessionsEnded > 0
        ? `Signed out of ${done.otherSessionsEnded} other session${done.otherSessionsEnded === 1 ? '' : 's'}. `
        : 'No other session was signed in. '}
      {done.apiKeysRevoked > 0 ? apiKeysRevokedText(done.apiKeysRevoked) : 'You had no API keys to revoke.'}
    </p>
  );
}
