import type { TModelCard } from '../parse-model-card';
import { count, figure, fixed, NOT_REPORTED, share } from '../format';

/** 12 hex digits are enough to tell two model files apart at a glance; the full hash is in the title. */
const shortHash = (h: string | null) => (h ? `${h.slice(0, 12)}…` : NOT_REPORTED);

function Stat({
  term,
  value,
  testId,
  title,
  className,
}: {
  term: string;
  value: string;
  testId?: string;
  title?: string | undefined;
  className?: string;
}) {
  return (
    <div className="stat">
      <dt>{term}</dt>
      <dd data-testid={testId} title={title} className={className}>
        {value}
      </dd>
    </div>
  );
}

/** The figures a reader wants first: which model, what it reports, how its gate and anatomy stage did. */
export function ModelHeadline({ card }: { card: TModelCard }) {
  const { anatomy, gate, scope } = card;
  const assessed =
    scope?.assessed.map((f) => f.display) ?? card.candidates.filter((c) => c.shipped).map((c) => c.display);
  const notAssessed =
    scope?.notAssessed.length ??
    (card.candidates.length ? card.candidates.filter((c) => c.shipped === false).length : null);
  return (
    <section aria-labelledby="mc-headline-heading">
      <h2 id="mc-headline-heading">At a glance</h2>
      <dl className="stats mc-stats">
        <Stat term="Model version" value={card.modelVersion ?? NOT_REPORTED} testId="model-version" />
        <Stat
          term="Model file sha256"
          value={shortHash(card.sha256)}
          testId="model-sha256"
          title={card.sha256 ?? undefined}
          className="mc-hash"
        />
        <Stat term="Findings reported" value={assessed.length ? String(assessed.length) : NOT_REPORTED} />
        <Stat term="Candidates not assessed" value={count(notAssessed)} />
        <Stat term="Held-out test images" value={count(card.testImages)} />
        <Stat term="Non-radiographs refused by the input gate" value={share(gate.allNegatives?.refused ?? null)} />
        <Stat term="Lung Dice (anatomy stage)" value={fixed(anatomy.lungDice)} />
        <Stat term="Heart Dice (anatomy stage)" value={fixed(anatomy.heartDice)} />
        <Stat term="Cardiothoracic ratio, mean absolute error" value={fixed(anatomy.ctrMae)} />
      </dl>
      <p className="muted small">
        {card.modelName ?? 'The model'} {card.modelVersion ?? ''} reports:{' '}
        {assessed.length ? assessed.join('; ') : NOT_REPORTED}
        {scope?.measuresHeartSize ? '; heart size (cardiothoracic ratio)' : ''}. Evaluated{' '}
        {card.evaluatedAt ?? '(date not reported)'}. Gate figure over {count(gate.allNegatives?.n ?? null)} generated
        non-radiographs; CTR error over {count(anatomy.ctrImages)} films. Training data:{' '}
        {card.trainingData ?? NOT_REPORTED}.
      </p>
    </section>
  );
}

/** The targets the evaluation set itself, with whether each was met. */
export function TargetsTable({ card }: { card: TModelCard }) {
  if (card.targets.length === 0) return null;
  return (
    <table className="model-figures mc-table">
      <caption>Targets set for this model and whether they were met</caption>
      <thead>
        <tr>
          <th scope="col">Population</th>
          <th scope="col">Measured</th>
          <th scope="col">Target (at least)</th>
          <th scope="col">Met</th>
          <th scope="col">Figure from</th>
        </tr>
      </thead>
      <tbody>
        {card.targets.map((t) => (
          <tr key={t.population}>
            <th scope="row">{t.population}</th>
            <td>{figure(t.measured)}</td>
            <td>{figure(t.target)}</td>
            <td>{t.met === null ? NOT_REPORTED : t.met ? 'yes' : 'no'}</td>
            <td>{t.from ?? NOT_REPORTED}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
