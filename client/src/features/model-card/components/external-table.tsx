import type { TExternalFigures } from '@contracts/model/metrics.js';
import { aucWithCi, count, NOT_REPORTED, share } from '../format';

const STATUS = (s: boolean | null) => (s === null ? NOT_REPORTED : s ? 'Shipped' : 'Not shown');

/**
 * Model 4's decision: every candidate on films from other hospitals (metrics.json `external`), with
 * the file's own caveat that the choices were made on these films.
 */
export function ExternalTable({ external }: { external: TExternalFigures | null }) {
  if (!external) return <p className="muted">Films from other hospitals: {NOT_REPORTED}.</p>;
  const rows = Object.entries(external.candidates);
  return (
    <>
      <p>
        {count(external.films)} films of {count(external.patients)} patients from collections none of the training sets
        draws on ({external.dataset ?? NOT_REPORTED}). <strong>Note:</strong> {external.caveat ?? NOT_REPORTED}.
      </p>
      <table className="model-figures mc-table" data-testid="external-table">
        <caption>Each candidate on films from other hospitals, at the shipped operating point</caption>
        <thead>
          <tr>
            <th scope="col">Output</th>
            <th scope="col">Status</th>
            <th scope="col">ROC AUC [95% CI]</th>
            <th scope="col">Population</th>
            <th scope="col">Positives / negatives</th>
            <th scope="col">Sensitivity</th>
            <th scope="col">Specificity</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, c]) => (
            <tr key={label} data-label={label} data-shipped={String(c.shipped)}>
              <th scope="row">{c.display ?? label}</th>
              <td>{STATUS(c.shipped)}</td>
              <td className="mc-nowrap">{aucWithCi(c.auc, c.aucCi95)}</td>
              <td>{c.population ?? NOT_REPORTED}</td>
              <td>
                {count(c.positives)} / {count(c.negatives)}
              </td>
              <td>{c.shipped ? share(c.sensitivity) : 'none (not shown)'}</td>
              <td>{c.shipped ? share(c.specificity) : 'none (not shown)'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Shipping rule: {external.shipRule ?? NOT_REPORTED}. Projection (AP/PA) on the external films that record it:{' '}
        {external.projection
          ? `${aucWithCi(external.projection.auc, external.projection.aucCi95)}, ${count(external.projection.n)} films`
          : NOT_REPORTED}
        .
      </p>
    </>
  );
}
