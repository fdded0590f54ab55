import type { TAuthUser } from '@contracts/schemas/auth';
import { SETTINGS_MESSAGES, ZChangeNameInput } from '@contracts/schemas/settings';
import { Form } from '../../../components/form';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toast/use-toast';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

export function ProfileTab({ user }: { user: TAuthUser }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZChangeNameInput,
    initialValues: { name: user.name },
    mutation: trpc.settings.changeName.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      toast.success(SETTINGS_MESSAGES.nameUpdated);
      utils.auth.me.setData(undefined, { success: true, user: res.user });
      form.setValue('name', res.user.name);
    },
    errorToast: { fallback: 'Failed to update name' },
  });

  return (
    <Form className="settings-form" onSubmit={form.submit}>
      <h2 className="section-title">Profile Information</h2>
      <TextField
        id="settings-name"
        label="Full Name"
        autoComplete="name"
        value={form.values.name}
        error={form.error?.message ?? null}
        onChange={(value) => form.setValue('name', value)}
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
      <button type="submit" className="button button-primary" disabled={form.pending}>
        {form.pending ? 'Saving...' : 'Save Changes'}
      </button>
    </Form>
  );
}
