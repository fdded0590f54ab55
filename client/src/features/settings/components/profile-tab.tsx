import { useState } from 'react';
import type { TAuthUser } from '@contracts/schemas/auth';
import { ZChangeNameInput } from '@contracts/schemas/settings';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { validate } from '../../../lib/first-issue';
import { trpc } from '../../../lib/trpc';

export function ProfileTab({ user }: { user: TAuthUser }) {
  const [name, setName] = useState(user.name);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const utils = trpc.useUtils();
  const change = trpc.settings.changeName.useMutation();

  const submit = () => {
    const parsed = validate(ZChangeNameInput, { name });
    if (!parsed.ok) return setError(parsed.message);
    setError(null);
    change.mutate(parsed.data, {
      onSuccess: (res) => {
        toast.success('Name updated successfully!');
        utils.auth.me.setData(undefined, { success: true, user: res.user });
        setName(res.user.name);
      },
      onError: (err) => toast.error(errorText(err, 'Failed to update name')),
    });
  };

  return (
    <Form className="settings-form" onSubmit={submit}>
      <h2 className="section-title">Profile Information</h2>
      <TextField
        id="settings-name"
        label="Full Name"
        autoComplete="name"
        value={name}
        error={error}
        onChange={setName}
      />
      <TextField
        id="settings-email"
        label="Email Address"
        hint="Email cannot be changed"
        type="email"
        value={user.email}
        readOnly
        aria-readonly="true"
      />
      <button type="submit" className="button button-primary" disabled={change.isPending}>
        {change.isPending ? 'Saving...' : 'Save Changes'}
      </button>
    </Form>
  );
}
