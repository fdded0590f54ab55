/**
 * One curated note per candidate finding label, written for clinicians (and a plainer line for
 * patients). General radiology teaching, deliberately conservative and without figures: the chat
 * quotes these next to the model's own figures (the stored result, the model card's metrics)
 * and never turns them into a diagnosis.
 */
export interface TConditionNote {
  label: string;
  name: string;
  /** Other ways a clinician may ask about it (lower case). */
  aliases: string[];
  what: string;
  /** Typical radiographic signs, to look for on the film. */
  signs: string[];
  /** What the model's positive or negative call for this output means, and what it does not. */
  callMeaning: string;
  /** What a frontal radiograph, and this output, cannot do for this condition. */
  limits: string[];
  differential: string[];
  nextSteps: string[];
  redFlags: string[];
  forPatient: string;
  /**
   * Labels this finding answers for when the result does not report them: model 5's adult airspace
   * opacity answers "is there pneumonia?" for a patient whose pediatric pneumonia output is withheld.
   */
  answersFor?: string[];
}
