import { Link } from 'wouter';
import { SITE_MESSAGES } from '@contracts/schemas/site';
import { ZTeamMappingPreviewInput } from '@contracts/schemas/sso';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import { SsoPreviewResult } from '../components/sso-preview-result';
import './sso-preview-page.css';

const EXAMPLE = JSON.stringify({ sub: 'jane.doe', email: 'jane.doe@hospital.example', groups: ['radiology'] }, null, 2);

/** Text that is not JSON reaches the schema as null, which it refuses with its own message. */
function parseClaims(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * /chat/settings/sso-preview (issue 41 part 6): a site administrator pastes the claims an IdP
 * would send for one person and reads what that sign-in would do to team memberships and roles,
 * with nothing changed. The link is on the Site tab only; the server answers 403 to anyone else.
 */
export function SsoPreviewPage() {
  const access = trpc.site.access.useQuery(undefined, { staleTime: 5 * 60_000 });
  const preview = trpc.site.previewTeamMapping.useMutation();
  const form = useZodForm({
    schema: ZTeamMappingPreviewInput,
    initialValues: { claims: EXAMPLE },
    toInput: (v) => ({ claims: parseClaims(v.claims) }),
    mutation: preview,
    variables: (data) => data,
    errorToast: { fallback: 'Could not preview the mapping' },
  });
  const error = form.fieldError('claims') ?? form.otherError(['claims']);
  return (
    <div className="page sso-preview-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">SSO mapping preview</h1>
          <p className="muted">
            What a hospital sign-in with these claims would do to team memberships and roles. Nothing is changed.
          </p>
        </div>
        <Link href="/settings" className="button button-secondary">
          Back to Settings
        </Link>
      </header>
      {access.isPending ? (
        <Spinner />
      ) : !access.data?.siteAdmin ? (
        <p className="field-error" role="alert">
          {SITE_MESSAGES.adminsOnly}.
        </p>
      ) : (
        <>
          <section className="card" aria-labelledby="sso-preview-claims-title">
            <h2 id="sso-preview-claims-title" className="section-title">
              Sample claims
            </h2>
            <Form className="sso-preview-form" onSubmit={form.submit}>
              <Field
                id="sso-preview-claims"
                label="Claims (JSON)"
                hint="Paste an ID token's claims or userinfo: sub, email and the groups claim this site reads"
                error={error}
              >
                <textarea
                  id="sso-preview-claims"
                  className="input sso-preview-claims"
                  rows={10}
                  spellCheck={false}
                  value={form.values.claims}
                  aria-invalid={Boolean(error)}
                  aria-describedby={describedBy('sso-preview-claims', { hint: true, error: Boolean(error) })}
                  onChange={(e) => form.setValue('claims', e.target.value)}
                />
              </Field>
              <button type="submit" className="button button-primary" disabled={form.pending}>
                {form.pending ? 'Previewing...' : 'Preview'}
              </button>
            </Form>
          </section>
          {preview.data ? <SsoPreviewResult preview={preview.data} /> : null}
        </>
      )}
    </div>
  );
}
