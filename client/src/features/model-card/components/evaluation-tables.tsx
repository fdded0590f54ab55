import type { TGateFigures, TTestPopulation } from '../parse-evaluation-tables';
import { aucWithCi, count, fixed, NOT_REPORTED, share } from '../format';

/** Every test-split population, with sensitivity and specificity at the threshold it is called at. */
export function PopulationsTable({ populations }: { populations: readonly TTestPopulation[] }) {
  if (populations.length === 0) return <p className="muted">Test-split populations: {NOT_REPORTED}.</p>;
  return (
    <table className="model-figures mc-table">
      <caption>Every test-split population: ROC AUC [95% CI], and sensitivity and specificity at the threshold</caption>
      <thead>
        <tr>
          <th scope="col">Population</th>
          <th scope="col">Output</th>
          <th scope="col">n (positives)</th>
          <th scope="col">ROC AUC [95% CI]</th>
          <th scope="col">Threshold</th>
          <th scope="col">Sensitivity</th>
          <th scope="col">Specificity</th>
        </tr>
      </thead>
      <tbody>
        {populations.map((p) => (
          <tr key={p.population}>
            <th scope="row">{p.population}</th>
            <td>{p.output ?? NOT_REPORTED}</td>
            <td>
              {count(p.n)} ({count(p.positives)})
            </td>
            <td className="mc-nowrap">{aucWithCi(p.auc, p.ci95)}</td>
            <td>{fixed(p.threshold)}</td>
            <td>{share(p.sensitivity)}</td>
            <td>{share(p.specificity)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How the input gate treated real radiographs (per source) and generated non-radiographs. */
export function GateTables({ gate }: { gate: TGateFigures }) {
  if (gate.radiographs.length === 0 && gate.negatives.length === 0)
    return <p className="muted">Input gate figures: {NOT_REPORTED}.</p>;
  return (
    <>
      <p>Reject threshold (probability the image is not a chest radiograph): {fixed(gate.rejectThreshold, 2)}.</p>
      <table className="model-figures mc-table">
        <caption>Chest radiographs per source: share refused by the gate</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">n</th>
            <th scope="col">Refused by the net</th>
            <th scope="col">Refused by the fixed checks</th>
            <th scope="col">Inverted copies flagged inverted</th>
          </tr>
        </thead>
        <tbody>
          {gate.radiographs.map((r) => (
            <tr key={r.source}>
              <th scope="row">{r.source}</th>
              <td>{count(r.n)}</td>
              <td>{share(r.netRefused)}</td>
              <td>{share(r.checksRefused)}</td>
              <td>{share(r.invertedFlagged)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="model-figures mc-table">
        <caption>Generated non-radiographs: share refused</caption>
        <thead>
          <tr>
            <th scope="col">Kind of image</th>
            <th scope="col">n</th>
            <th scope="col">Refused</th>
          </tr>
        </thead>
        <tbody>
          {gate.negatives.map((r) => (
            <tr key={r.kind}>
              <th scope="row">{r.kind.replace(/_/g, ' ')}</th>
              <td>{count(r.n)}</td>
              <td>{share(r.refused)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
