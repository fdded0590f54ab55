import { useState } from 'react';
import type { TComparison, TInterval } from '@contracts/schemas/models';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { ImportModelForm } from './import-model-form';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const iv = (x: TInterval | null) =>
  x ? `${x.value.toFixed(3)} (${x.low.toFixed(3)} to ${x.high.toFixed(3)})` : 'not enough of both reads';

/** A shadow model against the live results on the department's signed studies. */
function ComparisonTable({ c }: { c: TComparison }) {
  return (
    <div data-testid="site-model-comparison">
      <p className="muted small">
        {c.studies} signed studies of {c.patients} patients; intervals: 95 %, {c.resamples} patient resamples. Time per
        study: live {c.timing.liveMsPerStudy?.toFixed(0) ?? '–'} ms, shadow{' '}
        {c.timing.shadowMsPerStudy?.toFixed(0) ?? '–'} ms; worker memory {c.memory.shadowRssMb?.toFixed(0) ?? '–'} MB.
      </p>
      <p className="small">
        <strong>{c.note}</strong>
      </p>
      <table className="site-table">
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">Studies (named)</th>
            <th scope="col">AUROC live</th>
            <th scope="col">AUROC shadow</th>
            <th scope="col">Difference</th>
            <th scope="col">Flagged live / shadow</th>
            <th scope="col">PPV live / shadow</th>
          </tr>
        </thead>
        <tbody>
          {c.findings.map((f) => (
            <tr key={f.label}>
              <th scope="row">{f.display}</th>
              <td>
                {f.studies} ({f.present})
              </td>
              <td>{iv(f.live.auroc)}</td>
              <td>{iv(f.shadow.auroc)}</td>
              <td>{iv(f.difference)}</td>
              <td>
                {pct(f.live.flagRate)} / {pct(f.shadow.flagRate)}
              </td>
              <td>
                {pct(f.live.ppv)} / {pct(f.shadow.ppv)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Settings → Site → Models (issue 47): the registry's models with their status, shadow on and
 * off, the comparison on signed studies, promotion (with the confirm the server asks for) and
 * rollback, and the history. Every refusal is the server's message.
 */
export function SiteModelsPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const registry = trpc.site.models.useQuery();
  const [compared, setCompared] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const comparison = trpc.site.modelComparison.useQuery({ id: compared ?? '' }, { enabled: compared !== null });
  const done = {
    onSuccess: (r: { message: string }) => {
      toast.success(r.message);
      void refreshQuery(utils.site.models);
    },
    onError: (err: unknown) => toast.error(errorText(err, 'The registry refused the change')),
  };
  const shadow = trpc.site.shadowModel.useMutation(done);
  const unshadow = trpc.site.unshadowModel.useMutation(done);
  const promote = trpc.site.promoteModel.useMutation(done);
  const rollback = trpc.site.rollbackModel.useMutation(done);
  if (!registry.data) return <Spinner />;
  const { models, history, limits } = registry.data;
  return (
    <section aria-labelledby="site-models-title" data-testid="site-models">
      <h2 id="site-models-title" className="section-title">
        Models
      </h2>
      <p className="muted small">
        One model is live; up to {limits.maxShadows} run in shadow on every new study, after its report, and are never
        shown to clinicians. Import one below (or with <code>npm run model -- import</code>, docs/models.md): it becomes
        a candidate. Promotion needs operating points from a labelled cohort and {limits.promoteMinStudies} compared
        signed studies, or your confirmation.
      </p>
      <table className="site-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th scope="col">Contract</th>
            <th scope="col">sha256</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.id} data-testid={`site-model-${m.id}`}>
              <th scope="row">
                {m.name} {m.version}
                {m.importedBy ? <span className="muted small"> (imported by {m.importedBy})</span> : null}
              </th>
              <td>{m.status}</td>
              <td>{m.contract}</td>
              <td>
                <code>{m.sha256.slice(0, 12)}</code>
              </td>
              <td>
                {m.status === 'candidate' || m.status === 'retired' ? (
                  <button type="button" className="button button-secondary" onClick={() => shadow.mutate({ id: m.id })}>
                    Shadow
                  </button>
                ) : null}
                {m.status === 'shadow' ? (
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() => unshadow.mutate({ id: m.id })}
                  >
                    Stop shadow
                  </button>
                ) : null}
                {m.status !== 'live' ? (
                  <>
                    <button type="button" className="button button-secondary" onClick={() => setCompared(m.id)}>
                      Compare
                    </button>
                    <button
                      type="button"
                      className="button button-primary"
                      onClick={() => promote.mutate({ id: m.id, confirm })}
                    >
                      Promote
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="small">
        <input type="checkbox" checked={confirm} onChange={() => setConfirm(!confirm)} /> Promote on fewer compared
        studies than {limits.promoteMinStudies}
      </label>{' '}
      <button type="button" className="button button-secondary" onClick={() => rollback.mutate({})}>
        Roll back to the previous live model
      </button>
      {compared && comparison.data ? <ComparisonTable c={comparison.data} /> : null}
      {compared && comparison.isLoading ? <Spinner /> : null}
      <ImportModelForm onImported={() => void refreshQuery(utils.site.models)} />
      <h3 className="section-title">History</h3>
      {history.length === 0 ? (
        <p className="muted small">No change yet.</p>
      ) : (
        <ul data-testid="site-model-history">
          {history.map((e) => (
            <li key={e.id}>
              {new Date(e.at).toLocaleString()}: {e.by} — {e.action} {e.modelId}
              {e.from ? ` (${e.from} → ${e.to})` : ''}
              {e.comparison ? `, compared on ${e.comparison.studies} signed studies` : ''}
              {e.confirmed ? ', confirmed below the minimum' : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
