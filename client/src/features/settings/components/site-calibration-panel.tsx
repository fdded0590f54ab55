import { useState } from 'react';
import type { TCalibration, TFindingCalibration } from '@contracts/schemas/site';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const ci = (c: readonly number[]) => `${pct(c[0] ?? 0)}–${pct(c[1] ?? 1)}`;

function CalibrationTable({ findings }: { findings: readonly TFindingCalibration[] }) {
  return (
    <table className="site-table" data-testid="site-calibration-table">
      <thead>
        <tr>
          <th>Finding</th>
          <th>Site threshold</th>
          <th>Model default</th>
          <th>Cases (present/absent)</th>
          <th>Sensitivity (95 % CI)</th>
          <th>Specificity (95 % CI)</th>
        </tr>
      </thead>
      <tbody>
        {findings.map((f) => (
          <tr key={f.finding} data-label={f.finding}>
            <td>{f.display}</td>
            <td>{f.threshold.toFixed(2)}</td>
            <td>{f.defaultThreshold.toFixed(2)}</td>
            <td>
              {f.cases} ({f.positives}/{f.negatives})
            </td>
            <td>
              {pct(f.sensitivity)} ({ci(f.sensitivityCi95)})
            </td>
            <td>
              {pct(f.specificity)} ({ci(f.specificityCi95)})
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Propose site thresholds from clinician feedback or a labelled results CSV, then apply or revert (issue 17). */
export function SiteCalibrationPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const state = trpc.site.calibration.useQuery();
  const propose = trpc.site.proposeCalibration.useMutation();
  const apply = trpc.site.applyCalibration.useMutation();
  const revert = trpc.site.revertCalibration.useMutation();
  const [source, setSource] = useState<'feedback' | 'csv'>('feedback');
  const [target, setTarget] = useState('');
  const [csv, setCsv] = useState<string | null>(null);
  const [proposal, setProposal] = useState<TCalibration | null>(null);
  const done = (message: string) => {
    toast.success(message);
    setProposal(null);
    void refreshQuery(utils.site.calibration);
  };

  if (!state.data) return <Spinner />;
  const s = state.data;
  const onPropose = () => {
    const sensitivity = Number(target) / 100;
    const method = target.trim() ? { kind: 'target-sensitivity' as const, sensitivity } : { kind: 'youden' as const };
    propose.mutate(
      { source, method, ...(source === 'csv' && csv !== null ? { csv } : {}) },
      {
        onSuccess: setProposal,
        onError: (err) => toast.error(errorText(err, 'Could not propose thresholds')),
      },
    );
  };
  return (
    <section aria-labelledby="site-calibration-title" data-testid="site-calibration">
      <h2 id="site-calibration-title" className="section-title">
        Site calibration
      </h2>
      <p className="muted small">
        Model {s.model?.version ?? 'unknown'} (sha256 {s.model?.sha256.slice(0, 12) ?? '?'}…). Each finding needs at
        least {s.minCases} labelled cases.
      </p>
      {s.warning ? (
        <div className="site-banner" role="alert" data-testid="site-calibration-warning">
          {s.warning}
        </div>
      ) : null}
      {s.applied ? (
        <div data-testid="site-applied">
          <h3 className="chat-subsection-title">
            Applied {s.active ? '' : '(inactive)'} — {s.applied.method}, from {s.applied.source}
          </h3>
          <CalibrationTable findings={s.applied.findings} />
          <button
            type="button"
            className="button button-secondary"
            disabled={revert.isPending}
            onClick={() =>
              revert.mutate(undefined, {
                onSuccess: () => done('Site thresholds reverted'),
                onError: (err) => toast.error(errorText(err, 'Could not revert')),
              })
            }
          >
            Revert to model defaults
          </button>
        </div>
      ) : (
        <p className="muted" data-testid="site-no-calibration">
          New analyses use the model's default thresholds.
        </p>
      )}
      <fieldset className="site-propose">
        <legend>Propose thresholds</legend>
        <label>
          <input
            type="radio"
            name="site-source"
            checked={source === 'feedback'}
            onChange={() => setSource('feedback')}
          />{' '}
          Clinician feedback
        </label>
        <label>
          <input type="radio" name="site-source" checked={source === 'csv'} onChange={() => setSource('csv')} />{' '}
          Labelled results CSV (npm run batch)
        </label>
        {source === 'csv' ? (
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="Results CSV"
            onChange={(e) => void e.target.files?.[0]?.text().then(setCsv)}
          />
        ) : null}
        <label htmlFor="site-target">Target sensitivity % (empty: Youden)</label>
        <input
          id="site-target"
          className="input"
          inputMode="decimal"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
        {/* The file is read asynchronously: proposing before it is read would send no CSV at all. */}
        <button
          type="button"
          className="button button-primary"
          disabled={propose.isPending || (source === 'csv' && csv === null)}
          onClick={onPropose}
        >
          Propose
        </button>
      </fieldset>
      {proposal ? (
        <div data-testid="site-proposal">
          <CalibrationTable findings={proposal.findings} />
          {proposal.skipped.map((k) => (
            <p key={k.finding} className="muted small">
              Not calibrated: {k.finding}: {k.reason}
            </p>
          ))}
          <button
            type="button"
            className="button button-primary"
            disabled={apply.isPending}
            onClick={() =>
              apply.mutate(
                { calibrationId: proposal.id },
                {
                  onSuccess: () => done('Site thresholds applied to new analyses'),
                  onError: (err) => toast.error(errorText(err, 'Could not apply')),
                },
              )
            }
          >
            Apply to new analyses
          </button>
        </div>
      ) : null}
    </section>
  );
}
