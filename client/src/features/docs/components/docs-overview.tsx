import { Link } from 'wouter';
import { MODEL_FACTS, MODEL_SCOPE, percent } from '../model-facts';
import { FeatureGrid } from './feature-grid';
import './docs-overview.css';

/** Measured figures only (model-facts.ts); without a model card the page states none. */
export function ModelFigures() {
  if (!MODEL_FACTS) {
    return (
      <p className="muted">
        Measured accuracy figures are published in the <Link href="/model-card">model card</Link> that ships with each
        model.
      </p>
    );
  }
  const f = MODEL_FACTS;
  if (f.accuracy === null || f.macroAuc === null) return <FindingFigures />;
  return (
    <>
      <dl className="stats">
        <div className="stat">
          <dt>Accuracy on held-out test images</dt>
          <dd>{percent(f.accuracy)}</dd>
        </div>
        <div className="stat">
          <dt>Macro ROC AUC</dt>
          <dd>{f.macroAuc.toFixed(3)}</dd>
        </div>
        <div className="stat">
          <dt>Findings reported per X-ray</dt>
          <dd>{MODEL_SCOPE?.assessed.length ?? f.findings}</dd>
        </div>
      </dl>
      <p className="muted small">
        Measured on {f.testImages > 0 ? `${f.testImages.toLocaleString('en-US')} ` : ''}held-out test images
        {f.classes.length ? ` (${f.classes.join(' / ')})` : ''} by {f.modelName} {f.modelVersion}; see the{' '}
        <Link href="/model-card">model card</Link> for confidence intervals and limitations. Results on your patients
        may differ.
      </p>
    </>
  );
}

/** Model 2+: each shipped finding's ROC AUC on the held-out population that decided it ships. */
function FindingFigures() {
  const f = MODEL_FACTS!;
  return (
    <>
      <table className="model-figures" data-testid="model-figures">
        <caption>
          Measured on held-out data by {f.modelName} {f.modelVersion}
        </caption>
        <thead>
          <tr>
            <th scope="col">Finding</th>
            <th scope="col">ROC AUC [95% CI]</th>
            <th scope="col">Held-out population</th>
          </tr>
        </thead>
        <tbody>
          {f.figures.map((x) => (
            <tr key={x.label} data-label={x.label}>
              <th scope="row">{x.display}</th>
              <td>
                {x.auc.toFixed(3)} [{x.ci95[0].toFixed(3)}, {x.ci95[1].toFixed(3)}]
              </td>
              <td>
                {x.population} ({x.figureFrom})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Each figure is from data the model was not trained or tuned on; see the{' '}
        <Link href="/model-card">model card</Link> for every candidate finding, the per-source results and the
        limitations. Results on your patients may differ.
      </p>
    </>
  );
}

/** What the shipped model reports, and what it does not, straight from its manifest. */
export function ModelScope() {
  if (!MODEL_SCOPE)
    return <p className="muted">The findings each model reports are listed in the model card that ships with it.</p>;
  const s = MODEL_SCOPE;
  return (
    <section className="model-scope" aria-labelledby="model-scope-heading">
      <h3 id="model-scope-heading">What the model assesses</h3>
      <ul className="model-scope-list" data-testid="assessed-findings">
        {s.assessed.map((f) => (
          <li key={f.label} data-label={f.label}>
            {f.display}
            {f.summary ? <span className="muted"> (summary score)</span> : null}
          </li>
        ))}
        {s.measuresHeartSize ? (
          <li data-label="ctr">Heart size: the cardiothoracic ratio, measured from lung and heart outlines</li>
        ) : null}
      </ul>
      {s.notAssessed.length > 0 ? (
        <>
          <h3 id="not-assessed-heading">Not assessed</h3>
          <ul className="model-scope-list" data-testid="not-assessed-findings" aria-labelledby="not-assessed-heading">
            {s.notAssessed.map((f) => (
              <li key={f.label} data-label={f.label}>
                {f.display}
              </li>
            ))}
          </ul>
          <p className="muted small">
            {s.modelName} {s.modelVersion} reports no probability for these: this model version cannot back them on
            held-out data.
          </p>
        </>
      ) : null}
      <p className="muted small">
        Anything else on the film (fractures, lines and tubes, other conditions) is for the clinician&apos;s own read.
      </p>
    </section>
  );
}

export function OverviewTab() {
  return (
    <section aria-labelledby="overview-heading">
      <h2 id="overview-heading">AI-assisted chest X-ray analysis on your own servers</h2>
      <p>
        Upload a chest X-ray with the patient&apos;s details and get the findings with their probabilities, a heatmap of
        the regions that drove them and a written report. Then continue in a chat: ask follow-up questions about the
        analysis.
      </p>
      <p data-testid="availability">
        <strong>Available around the clock on your own server.</strong> Chest Doctor AI runs on infrastructure you
        control, 24/7 for as long as your server runs, with no vendor service in between.
      </p>
      <ModelFigures />
      <ModelScope />
      <div className="cta-row">
        <Link href="/signup" className="button button-primary">
          Sign up
        </Link>
        <Link href="/login" className="button button-secondary">
          Log in
        </Link>
      </div>
    </section>
  );
}

const FEATURES = [
  [
    'Findings with probabilities',
    'Every analysis lists each finding the model reports with its probability, shown as bars.',
  ],
  ['Heatmap overlay', 'See which regions of the image drove a finding; zoom, pan and adjust brightness and contrast.'],
  ['Live progress', 'Follow the analysis stage by stage while it runs on your own machine.'],
  ['Follow-up chat', 'Ask questions about the report; the answer streams in as it is written.'],
  ['Patient profiles', 'Keep reusable patient details (name, age, custom fields) to start analyses quickly.'],
  ['Exports', 'Download a report as PDF, DOCX or JSON.'],
  [
    'DICOM via API',
    'Submit studies programmatically with an API key, DICOM files included; the upload form accepts DICOM (.dcm) files too.',
  ],
  [
    'Private by design',
    'Self-hosted: images and patient data stay on your infrastructure, with an append-only audit log.',
  ],
] as const;

export function FeaturesTab() {
  return (
    <section aria-labelledby="features-heading">
      <h2 id="features-heading">Features</h2>
      <FeatureGrid items={FEATURES} />
    </section>
  );
}

const STEPS = [
  ['Create your account', 'Sign up with your name, email address and a password of at least 8 characters.'],
  ['Add a patient profile', "Under Profiles, save the patient's name, age and any additional information."],
  ['Start a new chat', 'Click New Chat in the sidebar and select the patient profile.'],
  [
    'Upload the X-ray',
    'Choose a JPEG, PNG or WebP image or a DICOM (.dcm) file up to 10MB, check the patient information and submit.',
  ],
  ['Review the analysis', 'Read the findings, their probabilities and the heatmap once the analysis completes.'],
  [
    'Ask follow-up questions',
    'Continue the conversation about the X-ray, rename or delete chats, and export the report.',
  ],
] as const;

export function GuideTab() {
  return (
    <section aria-labelledby="guide-heading">
      <h2 id="guide-heading">Getting started in 6 steps</h2>
      <ol className="guide-steps">
        {STEPS.map(([title, text], i) => (
          <li key={title} className="guide-step">
            <span className="step-number" aria-hidden="true">
              {i + 1}
            </span>
            <div>
              <h3>{title}</h3>
              <p>{text}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
