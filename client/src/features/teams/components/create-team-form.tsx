import { ZCreateTeamInput } from '@contracts/schemas/team';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { setSpace } from '../../../lib/current-space';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

/** Creates a team; its creator is its first admin, and the new team becomes the current space. */
export function CreateTeamForm() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZCreateTeamInput,
    initialValues: { name: '' },
    mutation: trpc.team.create.useMutation(),
    variables: (data) => data,
    onSuccess: (team) => {
      form.setValues({ name: '' });
      toast.success('Team created');
      // The list first: the space guard would take a team missing from it for one the user lost.
      void refreshQuery(utils.team.list).then(() => setSpace({ teamId: team.id, name: team.name }));
    },
    errorToast: { fallback: 'Failed to create team' },
  });
  const error = form.error?.message ?? null;
  return (
    <section className="card team-section" aria-labelledby="create-team-title">
      <h2 id="create-team-title" className="section-title">
        Create a team
      </h2>
      <p className="muted">
        A team shares its patients, chats and worklist with its members. Everything in your personal space stays
        private.
      </p>
      <Form className="team-inline-form" onSubmit={form.submit}>
        <Field id="team-name" label="Team name" hint="3-80 characters, e.g. Radiology — St Mary's" error={error}>
          <input
            id="team-name"
            className="input"
            value={form.values.name}
            maxLength={80}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy('team-name', { hint: true, error: Boolean(error) })}
            onChange={(e) => form.setValue('name', e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-primary" disabled={form.pending}>
          {form.pending ? 'Creating...' : 'Create team'}
        </button>
      </Form>
    </section>
  );
}
