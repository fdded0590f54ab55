/**
 * The kinds of question the grounded responder answers (issue 27), each with the words the
 * ask-back uses ("Do you mean … or …?"). The classifier's classes are these, in this order.
 */
export const INTENT_KINDS = [
  'summary',
  'finding',
  'heart-size',
  'compare',
  'confidence',
  'accuracy',
  'next-steps',
  'treatment',
  'admission',
  'imaging',
  'differential',
  'patient',
  'normal',
  'quality',
  'location',
  'heatmap',
  // The reading room's questions (issue 41): answered from the drafted report and the stored result.
  'impression',
  'top-finding',
  'devices',
  'why-flagged',
  'draft-report',
  // Issue 49: anatomy the model does not assess, and the result's own limits.
  'anatomy',
  'limits',
] as const;
export type TIntentKind = (typeof INTENT_KINDS)[number];

export const INTENT_PHRASES: Record<TIntentKind, string> = {
  summary: 'a summary of the result',
  finding: 'what a finding means',
  'heart-size': 'the heart size (the cardiothoracic ratio)',
  compare: 'the change since the previous X-ray',
  confidence: 'how sure the model is about this image',
  accuracy: "the model's measured accuracy (the model card)",
  'next-steps': 'the usual next steps',
  treatment: 'whether to treat',
  admission: 'whether to admit',
  imaging: 'whether further imaging is needed',
  differential: 'the differential',
  patient: 'how to explain it to the patient',
  normal: 'whether the film looks normal',
  quality: 'the image quality',
  location: 'where in the lungs the model sees it',
  heatmap: 'what the heatmap shows',
  impression: "the drafted report's impression",
  'top-finding': 'the most important finding',
  devices: 'lines, tubes and devices',
  'why-flagged': 'why a finding is or is not flagged',
  'draft-report': 'the drafted report in its four sections',
  anatomy: 'the anatomy the model does not assess (airway, mediastinum, pleural angles, bones, soft tissues)',
  limits: 'what makes this result less reliable (projection, rotation, age, the external figures)',
};
