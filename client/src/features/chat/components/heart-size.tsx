import type { TStoryFinding } from '@contracts/finding-story';
import { AP_MAGNIFIES, filmOf, judgedAp, projectionText } from '@contracts/finding-text';
import { heartStory } from '@contracts/heart-story';
import type { TAnatomy, TProjection } from '@contracts/schemas/analysis';
import './heart-size.css';

/** Why the anatomy stage gave no ratio: the plausibility check's reason, else its flags (the report says the same). */
function noCtrReason(anatomy: TAnatomy): string {
  if (anatomy.ctrUnreliable) return anatomy.ctrUnreliable.reason;
  if (anatomy.flags.includes('no_heart')) return 'the heart outline could not be found reliably on this film';
  if (anatomy.flags.includes('no_lung_field')) return 'no usable lung field was found on this film';
  return 'the anatomy stage could not measure it on this film';
}

interface THeartSizeProps {
  anatomy: TAnatomy;
  /** AP or PA (model 4, or the DICOM ViewPosition); absent on older results. */
  projection?: TProjection | null | undefined;
  findings?: readonly TStoryFinding[] | undefined;
  patientAge: string | null | undefined;
}

/**
 * The cardiothoracic ratio next to the findings, on its projection, with the reference it is read
 * against and the caveat that goes with it; a cardiomegaly called from the measured heart reads
 * "Enlarged cardiac silhouette — CTR …"; for a patient under 18 the adult reference is said not to apply.
 */
export function HeartSize({ anatomy, projection, findings = [], patientAge }: THeartSizeProps) {
  const age = patientAge && patientAge.trim() !== '' ? Number(patientAge) : NaN;
  const pediatric = Number.isFinite(age) && age < 18;
  // The one heart story (contracts/heart-story.ts): the same call, ratio and reconciling words as the report.
  const story = heartStory(anatomy, projection, findings);
  return (
    <section className="chat-heart" aria-labelledby="chat-heart-title" data-testid="heart-size">
      <h2 id="chat-heart-title" className="chat-section-title">
        Heart size
      </h2>
      {anatomy.ctrUnreliable ? (
        <p className="chat-heart-line" data-testid="ctr-not-measurable">
          Cardiothoracic ratio: not measurable: {noCtrReason(anatomy)}.
        </p>
      ) : anatomy.ctr === null ? (
        <p className="chat-heart-line">Cardiothoracic ratio: not measured ({noCtrReason(anatomy)}).</p>
      ) : (
        <>
          {story?.headline ? (
            <p
              className={`chat-heart-line${story.state === 'enlarged' ? ' chat-heart-enlarged' : ''}`}
              data-testid="heart-enlarged"
            >
              <strong>{story.headline}</strong>
            </p>
          ) : null}
          <p className="chat-heart-line">
            Cardiothoracic ratio <strong className="chat-heart-value">{anatomy.ctr.toFixed(2)}</strong>
            {projection ? ` on ${filmOf(projection)}` : ''}{' '}
            <span className="chat-heart-reference">
              (usual upper reference {anatomy.ctrReference.toFixed(2)} on an adult PA film
              {judgedAp(projection) ? `; ${AP_MAGNIFIES}` : ''})
            </span>
          </p>
          {story?.reconcile ? (
            <p className="chat-heart-line" data-testid="heart-reconcile">
              {story.reconcile}.
            </p>
          ) : null}
        </>
      )}
      {projection ? (
        <p className="muted small chat-hint" data-testid="projection">
          Projection: {projectionText(projection)}
        </p>
      ) : null}
      <p className="muted small chat-hint">
        {pediatric ? 'Pediatric patient: the adult reference does not apply. ' : ''}
        Less reliable on AP and pediatric films; a measurement from the model&apos;s outlines, not a diagnosis.
      </p>
    </section>
  );
}
