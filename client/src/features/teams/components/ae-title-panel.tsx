import { useState } from 'react';
import { ZAeTitleInput } from '@contracts/schemas/team';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

/** Admin only: the called AE title the DICOM node routes to this team (empty: none). */
export function AeTitlePanel({ teamId, aeTitle }: { teamId: string; aeTitle: string | null }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const [saved, setSaved] = useState(aeTitle);
  const form = useZodForm({
    schema: ZAeTitleInput,
    initialValues: { aeTitle: aeTitle ?? '' },
    toInput: (v) => ({ teamId, aeTitle: v.aeTitle.trim() === '' ? null : v.aeTitle }),
    mutation: trpc.team.setAeTitle.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      setSaved(res.aeTitle);
      toast.success(res.aeTitle ? 'AE title saved' : 'AE title cleared');
      void refreshQuery(utils.team.list);
    },
    errorToast: { fallback: 'Failed to save AE title' },
  });
  const error = form.error?.message ?? null;
  return (
    <section className="card team-section" aria-labelledby="ae-title-title">
      <h2 id="ae-title-title" className="section-title">
        DICOM routing
      </h2>
      <p className="muted">
        Studies a PACS sends to this node with this called AE title land in the team&apos;s worklist.{' '}
        {saved ? (
          <>
            Now: <code>{saved}</code>
          </>
        ) : (
          'No AE title is set.'
        )}
      </p>
      <Form className="team-inline-form" onSubmit={form.submit}>
        <Field
          id="team-ae-title"
          label="Called AE title"
          hint="1-16 letters, digits, spaces, - or _; empty to clear"
          error={error}
        >
          <input
            id="team-ae-title"
            className="input"
            value={form.values.aeTitle}
            maxLength={16}
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy('team-ae-title', { hint: true, error: Boolean(error) })}
            onChange={(e) => form.setValue('aeTitle', e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-primary" disabled={form.pending}>
          {form.pending ? 'Saving...' : 'Save AE title'}
        </button>
      </Form>
    </section>
  );
}
