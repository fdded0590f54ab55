import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import type { TZodForm } from '../../../lib/use-zod-form';

/** The one field that creates an API key (personal or a team's): its name, then the create button. */
export function ApiKeyNameForm({
  id,
  className,
  hint,
  submitLabel,
  form,
}: {
  id: string;
  className: string;
  hint: string;
  submitLabel: string;
  form: TZodForm<{ name: string }>;
}) {
  const error = form.error?.message ?? null;
  return (
    <Form className={className} onSubmit={form.submit}>
      <Field id={id} label="Key name" hint={hint} error={error}>
        <input
          id={id}
          className="input"
          value={form.values.name}
          maxLength={100}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy(id, { hint: true, error: Boolean(error) })}
          onChange={(e) => form.setValue('name', e.target.value)}
        />
      </Field>
      <button type="submit" className="button button-primary" disabled={form.pending}>
        {form.pending ? 'Creating...' : submitLabel}
      </button>
    </Form>
  );
}
