import { LIKELY_FROM } from '@contracts/finding-call';
import type { TCandidate } from '../parse-model-card';
import { aucWithCi, count, fixed, NOT_REPORTED } from '../format';
import { AurocChart } from './auroc-chart';

const STATUS = (s: boolean | null) => (s === null ? NOT_REPORTED : s ? 'Shipped' : 'Not assessed');

/** Every candidate finding, the figure that decided it and the threshold a shipped one is called at. */
export function FindingsTable({
  candidates,
  shipRule,
}: {
  candidates: readonly TCandidate[];
  shipRule: string | null;
}) {
  if (candidates.length === 0) return <p className="muted">Per-finding figures: {NOT_REPORTED}.</p>;
  return (
    <>
      <table className="model-figures mc-table" data-testid="finding-table">
        <caption>
          Each candidate finding: ROC AUC with its 95 % confidence interval on the held-out population that decided it
        </caption>
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">Status</th>
            <th scope="col">ROC AUC [95% CI]</th>
            <th scope="col">Deciding population</th>
            <th scope="col">n (positives)</th>
            <th scope="col">Possible from</th>
            <th scope="col">Likely from</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <tr key={c.label} data-label={c.label} data-shipped={String(c.shipped)}>
              <th scope="row">{c.display}</th>
              <td>{STATUS(c.shipped)}</td>
              <td data-testid="auc" className="mc-nowrap">
                {aucWithCi(c.auc, c.ci95)}
              </td>
              <td>
                {c.population ?? NOT_REPORTED}
                {c.figureFrom ? <span className="muted"> ({c.figureFrom})</span> : null}
              </td>
              <td>
                {count(c.n)} ({count(c.positives)})
              </td>
              <td>{c.shipped === false ? 'none (not shipped)' : fixed(c.threshold)}</td>
              <td data-testid="likely-from">
                {c.shipped === false || c.threshold === null
                  ? '—'
                  : fixed(Math.max(c.threshold, c.likelyThreshold ?? LIKELY_FROM))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">Shipping rule: {shipRule ?? NOT_REPORTED}.</p>
      <AurocChart
        id="finding-auroc-chart"
        title="ROC AUC of each candidate finding with its 95 % confidence interval"
        description="Bars: ROC AUC on the deciding population; whiskers: 95 % bootstrap interval; darker bars are shipped findings; the dashed line is 0.5, a coin toss."
        bars={candidates.map((c) => ({
          key: c.label,
          label: c.display,
          value: c.auc,
          ci95: c.ci95,
          emphasis: c.shipped === true,
        }))}
      />
    </>
  );
}
