import type { TAnatomy } from '@contracts/schemas/analysis';
import './heart-size.css';

/** Why the anatomy stage gave no ratio: the plausibility check's reason, else its flags (the report says the same). */
function noCtrReason(anatomy: TAnatomy): string {
  if (anatomy.ctrUnreliable) return anatomy.ctrUnreliable.reason;
  if (anatomy.flags.includes('no_heart')) return 'the heart outline could not be found reliably on this film';
  if (anatomy.flags.includes('no_lung_field')) return 'no usable lung field was found on this film';
  return 'the anatomy stage could not measure it on this film';
}

/**
 * The cardiothoracic ratio next to the findings, with the reference it is read against and the
 * caveat that goes with it; for a patient under 18 the adult reference is said not to apply.
 */
export function HeartSize({ anatomy, patientAge }: { anatomy: TAnatomy; patientAge: string | null | undefined }) {
  const age = patientAge && patientAge.trim() !== '' ? Number(patientAge) : NaN;
  const pediatric = Number.isFinite(age) && age < 18;
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
        <p className="chat-heart-line">
          Cardiothoracic ratio <strong className="chat-heart-value">{anatomy.ctr.toFixed(2)}</strong>{' '}
          <span className="chat-heart-reference">
            (usual upper reference {anatomy.ctrReference.toFixed(2)} on an adult PA film)
          </span>
        </p>
      )}
      <p className="muted small chat-hint">
        {pediatric ? 'Pediatric patient: the adult reference does not apply. ' : ''}
        Less reliable on AP and pediatric films; a measurement from the model&apos;s outlines, not a diagnosis.
      </p>
    </section>
  );
}
