import { useState } from 'react';
import { apiKeysRevokedText } from '@contracts/schemas/api-key';
import { SETTINGS_MESSAGES, ZChangePasswordInput, type TChangePasswordResult } from '@contracts/schemas/settings';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

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
  const [done, setDone] = useState<TChangePasswordResult | null>(null);
  const toast = useToast();
  const form = useZodForm({
    schema: ZChangePasswordInput,
    initialValues: EMPTY,
    onValid: () => setDone(null),
    mutation: trpc.settings.changePassword.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      toast.success(SETTINGS_MESSAGES.passwordUpdated);
      form.setValues(EMPTY);
      setDone(res);
    },
    // 403 WRONG_PASSWORD (not 401, which would sign the user out).
    errorToast: {
      fallback: 'Failed to update password',
      overrides: { WRONG_PASSWORD: SETTINGS_MESSAGES.wrongCurrentPassword },
    },
    onError: (_err, text) => {
      if (text === SETTINGS_MESSAGES.wrongCurrentPassword) form.setError({ field: 'current_password', message: text });
    },
  });

  return (
    <Form className="settings-form" onSubmit={form.submit}>
      <h2 className="section-title">Change Password</h2>
      {FIELDS.map((f) => (
        <TextField
          key={f.key}
          id={f.id}
          label={f.label}
          hint={f.hint}
          type="password"
          autoComplete={f.autoComplete}
          value={form.values[f.key]}
          error={form.fieldError(f.key)}
          onChange={(value) => form.setValue(f.key, value)}
        />
      ))}
      <button type="submit" className="button button-primary" disabled={form.pending}>
        {form.pending ? 'Updating...' : 'Update Password'}
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
