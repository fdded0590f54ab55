import type { TComparison, TLiveModelCard } from '@contracts/schemas/models';
import { count, fixed, NOT_REPORTED, share } from '../format';

type TImported = NonNullable<TLiveModelCard['imported']>;

const interval = (v: { value: number; low: number; high: number } | null): string =>
  v ? `${v.value.toFixed(3)} [${v.low.toFixed(3)}, ${v.high.toFixed(3)}]` : NOT_REPORTED;

const day = (iso: string): string => iso.slice(0, 10);

function OperatingPoints({ model }: { model: TImported }) {
  const op = model.operatingPoints;
  if (!op)
    return (
      <p data-testid="live-no-points">
        No operating points have been measured for {model.name} on a labelled cohort of this site, so no figure of its
        performance exists.
      </p>
    );
  return (
    <table className="model-figures mc-table" data-testid="live-operating-points">
      <caption>
        Operating points measured on this site&apos;s labelled cohort: {count(op.studies)} studies, measured{' '}
        {day(op.measuredAt)} (the threshold maximising sensitivity + specificity on the same films, so new films may do
        less well)
      </caption>
      <thead>
        <tr>
          <th scope="col">Finding</th>
          <th scope="col">Threshold</th>
          <th scope="col">Sensitivity</th>
          <th scope="col">Specificity</th>
          <th scope="col">ROC AUC</th>
          <th scope="col">Positives / negatives</th>
        </tr>
      </thead>
      <tbody>
        {op.findings.map((f) => (
          <tr key={f.label} data-label={f.label}>
            <th scope="row">{f.label}</th>
            <td data-testid="threshold">{fixed(f.threshold)}</td>
            <td data-testid="sensitivity">{share(f.sensitivity)}</td>
            <td data-testid="specificity">{share(f.specificity)}</td>
            <td data-testid="auroc">{fixed(f.auroc)}</td>
            <td>
              {count(f.positives)} / {count(f.negatives)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PromotionComparison({ model, comparison }: { model: TImported; comparison: TComparison | null }) {
  const made = model.madeLive;
  const how = made
    ? `${made.action === 'promote' ? 'Promoted' : 'Made live again by a rollback'} on ${day(made.at)} by ${made.by}${made.from ? ` (before it: ${made.from})` : ''}${made.confirmed ? ', confirmed on fewer compared studies than the site requires' : ''}.`
    : 'No record of how it became live.';
  if (!comparison) return <p>{how} No comparison was recorded at its promotion.</p>;
  if (comparison.findings.length === 0)
    return (
      <p>
        {how} The comparison recorded at its promotion had {count(comparison.studies)} signed studies and no finding
        compared.
      </p>
    );
  return (
    <>
      <p>{how}</p>
      <table className="model-figures mc-table" data-testid="live-comparison">
        <caption>
          The comparison recorded at its promotion: {count(comparison.studies)} signed studies of{' '}
          {count(comparison.patients)} patients, {comparison.modelId} against {comparison.liveModelId} (ROC AUC with its
          patient-bootstrap 95 % interval, {count(comparison.resamples)} resamples)
        </caption>
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">Studies (named present)</th>
            <th scope="col">{comparison.liveModelId} ROC AUC</th>
            <th scope="col">{comparison.modelId} ROC AUC</th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          {comparison.findings.map((f) => (
            <tr key={f.label} data-label={f.label}>
              <th scope="row">{f.display}</th>
              <td>
                {count(f.studies)} ({count(f.present)})
              </td>
              <td className="mc-nowrap">{interval(f.live.auroc)}</td>
              <td className="mc-nowrap">{interval(f.shadow.auroc)}</td>
              <td className="mc-nowrap">{interval(f.difference)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">{comparison.note}</p>
    </>
  );
}

/**
 * The live imported model's own card (issue 47), from GET /api/model-card/live: its import
 * record, the fixture films it was checked on, its cohort operating points and the comparison
 * recorded when it was made live. Every figure is read from the server; none is typed here.
 */
export function LiveModelCard({ model, shippedName }: { model: TImported; shippedName: string }) {
  return (
    <section aria-labelledby="mc-live-heading" data-testid="live-model-card">
      <h2 id="mc-live-heading">The model live at this site</h2>
      <dl className="stats mc-stats">
        <div className="stat">
          <dt>Model</dt>
          <dd data-testid="live-model">
            {model.name} {model.version}
          </dd>
        </div>
        <div className="stat">
          <dt>Contract</dt>
          <dd>{model.contract}</dd>
        </div>
        <div className="stat">
          <dt>Model file sha256</dt>
          <dd className="mc-hash" title={model.sha256} data-testid="live-sha256">
            {model.sha256.slice(0, 12)}…
          </dd>
        </div>
        <div className="stat">
          <dt>Imported</dt>
          <dd>
            {day(model.importedAt)} by {model.importedBy}
          </dd>
        </div>
      </dl>
      <OperatingPoints model={model} />
      <PromotionComparison model={model} comparison={model.promotionComparison} />
      <table className="model-figures mc-table">
        <caption>The committed fixture films the import ran it on</caption>
        <thead>
          <tr>
            <th scope="col">Film</th>
            <th scope="col">Accepted</th>
            <th scope="col">Top finding</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {model.fixtureRuns.map((r) => (
            <tr key={r.film}>
              <th scope="row">{r.film}</th>
              <td>{r.accepted ? 'yes' : 'no'}</td>
              <td>{r.topFinding ?? 'none'}</td>
              <td>{Math.round(r.ms)} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p role="note" data-testid="shipped-not-live">
        The card below describes the shipped model, {shippedName}, which is not live at this site: new analyses use{' '}
        {model.name} {model.version}, and only the figures above describe it.
      </p>
    </section>
  );
}
