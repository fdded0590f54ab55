import { useState } from 'react';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { SiteLineChart } from './site-line-chart';

/** Drift and performance monitor (issue 17): weekly aggregates only, no patient data. */
export function SiteMonitorPanel() {
  const [weeks, setWeeks] = useState(8);
  const q = trpc.site.monitoring.useQuery({ weeks });
  if (!q.data) return <Spinner />;
  const m = q.data;
  const labels = m.weeks.map((w) => w.week);
  return (
    <section aria-labelledby="site-monitor-title" data-testid="site-monitor">
      <h2 id="site-monitor-title" className="section-title">
        Drift and performance
      </h2>
      {m.alerts.length > 0 ? (
        <div className="site-banner" role="alert" data-testid="site-alerts">
          {m.alerts.map((a) => (
            <p key={a}>{a}</p>
          ))}
        </div>
      ) : null}
      <label htmlFor="site-weeks">Weeks shown </label>
      <select id="site-weeks" value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
        {[4, 8, 12, 26].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <SiteLineChart
        title="Analyses and gate refusals per week"
        kind="bar"
        xLabels={labels}
        yMax={1}
        series={[
          { name: 'analyses', values: m.weeks.map((w) => w.analyses) },
          { name: 'refused', values: m.weeks.map((w) => w.refused) },
        ]}
      />
      {m.reference ? (
        <>
          <SiteLineChart
            title="Score distribution shift (PSI against the validation reference)"
            xLabels={labels}
            yMax={0.3}
            limit={{ value: m.psiAlert, label: `alert ${m.psiAlert}` }}
            series={m.findings.map((f) => ({ name: f.display, values: m.weeks.map((w) => w.psi[f.label] ?? null) }))}
          />
          <p className="muted small">
            Reference: model {m.reference.modelVersion}, {m.reference.films} validation films ({m.reference.splits}).
            Weeks with fewer than {m.psiMinScores} analysed films show no PSI.
          </p>
        </>
      ) : m.staleReference ? (
        <p className="muted" data-testid="site-stale-reference">
          {m.staleReference.message}
        </p>
      ) : (
        <p className="muted" data-testid="site-no-reference">
          No reference: this model ships no validation score distribution, so no drift figure is shown.
        </p>
      )}
      <SiteLineChart
        title="Clinician agreement per finding"
        xLabels={labels}
        yMax={1}
        limit={{ value: m.agreementFloor, label: `floor ${m.agreementFloor}` }}
        series={m.findings.map((f) => ({ name: f.display, values: m.weeks.map((w) => w.agreement[f.label] ?? null) }))}
      />
    </section>
  );
}
