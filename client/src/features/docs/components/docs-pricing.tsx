import { Link } from 'wouter';
import { MODEL_FACTS, MODEL_SCOPE, percent } from '../model-facts';
import { FeatureGrid } from './feature-grid';
import './docs-pricing.css';

const PLANS = [
  { name: 'Starter', price: '$99', limit: 'Up to 100 analyses per month', popular: false },
  { name: 'Professional', price: '$299', limit: 'Up to 500 analyses per month', popular: true },
  { name: 'Enterprise', price: '$999', limit: 'Unlimited analyses', popular: false },
] as const;

export function PricingTab() {
  return (
    <section aria-labelledby="pricing-heading">
      <h2 id="pricing-heading">Pricing</h2>
      <ul className="plan-grid">
        {PLANS.map((p) => (
          <li key={p.name} className={`plan-card ${p.popular ? 'plan-popular' : ''}`}>
            {p.popular ? <span className="badge">Most Popular</span> : null}
            <h3>{p.name}</h3>
            <p className="plan-price">
              {p.price}
              <span>/month</span>
            </p>
            <p>{p.limit}</p>
            <Link href="/signup" className={`button ${p.popular ? 'button-primary' : 'button-secondary'}`}>
              Get started
            </Link>
          </li>
        ))}
      </ul>
      <p className="muted">Volume discounts on annual plans.</p>
      <p data-testid="no-trial">
        <strong>No free trial needed.</strong> Chest Doctor AI is self-hosted: it is installed on your own server and is
        yours to run, so there is no trial period to expire.
      </p>
    </section>
  );
}

const USES = [
  [
    'Second reader in the emergency department',
    'A clinician reads the film, then checks the flagged findings and the heatmap before signing off.',
  ],
  ['Triage of a backlog', 'A radiology team reviews analyses with high probabilities first.'],
  ['Teaching', 'Residents compare their own reading with the findings and ask follow-up questions in the chat.'],
] as const;

/**
 * Section 1 lists ratings and usage figures (4.9/5, 500+ facilities, 50,000+ analyses) that this
 * product cannot back, so no quotes or numbers are invented here: only ways of using it.
 */
export function TestimonialsTab() {
  return (
    <section aria-labelledby="testimonials-heading">
      <h2 id="testimonials-heading">Testimonials</h2>
      <p>
        We publish customer quotes and ratings only once they can be verified. Meanwhile, this is how clinical teams use
        Chest Doctor AI:
      </p>
      <FeatureGrid items={USES} />
    </section>
  );
}

function accuracyAnswer(): string {
  if (!MODEL_FACTS)
    return 'Each model ships with a model card that reports its measured accuracy on held-out test images.';
  if (MODEL_FACTS.accuracy === null || MODEL_FACTS.macroAuc === null) {
    const figs = MODEL_FACTS.figures.map((x) => `${x.display} ${x.auc.toFixed(3)} (${x.population})`).join('; ');
    return (
      `${MODEL_FACTS.modelName} ${MODEL_FACTS.modelVersion} reports each finding with its own measured ROC AUC on held-out data: ${figs}. ` +
      'The model card lists every candidate finding, the per-source results and the limitations; performance on your own patients may differ.'
    );
  }
  return (
    `On ${MODEL_FACTS.testImages > 0 ? `${MODEL_FACTS.testImages.toLocaleString('en-US')} ` : ''}held-out test images the shipped model ` +
    `reached ${percent(MODEL_FACTS.accuracy)} accuracy and a macro ROC AUC of ${MODEL_FACTS.macroAuc.toFixed(3)}. ` +
    'The model card lists its limitations; performance on your own patients may differ.'
  );
}

function scopeAnswer(): string {
  if (!MODEL_SCOPE) return 'Each model lists the findings it reports in its model card.';
  const names = MODEL_SCOPE.assessed.filter((f) => !f.summary).map((f) => f.display);
  const heart = MODEL_SCOPE.measuresHeartSize ? ' It also measures the cardiothoracic ratio.' : '';
  const not = MODEL_SCOPE.notAssessed.length
    ? ` Not assessed by this model version (it cannot back them on held-out data): ${MODEL_SCOPE.notAssessed.map((f) => f.display).join(', ')}.`
    : '';
  return `The shipped model reports a probability for: ${names.join(', ')}.${heart}${not}`;
}

const FAQ: [string, () => string][] = [
  [
    'Does Chest Doctor AI make a diagnosis?',
    () => 'No. It is an assistive tool: a clinician must review every result. See the medical disclaimer below.',
  ],
  ['Which findings does it assess?', scopeAnswer],
  ['How accurate is it?', accuracyAnswer],
  [
    'Which images can I upload?',
    () =>
      'Frontal chest X-rays as JPEG, PNG or WebP images or DICOM (.dcm) files, up to 10MB, in the upload form or through the API.',
  ],
  [
    'Where is patient data stored?',
    () => 'On the servers of the organisation that runs it. Nothing is sent to a third party for analysis.',
  ],
  [
    'Is it HIPAA compliant?',
    () =>
      'Compliance depends on how and where you deploy it. The software keeps data on your infrastructure, requires sign-in and keeps an audit log, but it holds no certification of its own.',
  ],
  [
    'Is there a free trial?',
    () =>
      'No trial is needed: the software runs on your own server and is yours, so there is no trial period or card to enter.',
  ],
  [
    'Is it available 24/7?',
    () =>
      'It runs on your own server, around the clock for as long as that server runs. There is no vendor service in between whose hours or outages apply.',
  ],
  ['Can I export the results?', () => 'Yes: each analysis can be exported as PDF, DOCX or JSON.'],
];

export function FaqTab() {
  return (
    <section aria-labelledby="faq-heading">
      <h2 id="faq-heading">Frequently asked questions</h2>
      <div className="faq">
        {FAQ.map(([q, a]) => (
          <details key={q} className="faq-item">
            <summary>{q}</summary>
            <p>{a()}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
