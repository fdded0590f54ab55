import { findingSentence } from '@contracts/finding-story.js';
import { ratio } from '../../analysis/anatomy-text.js';
import { bullets, closing } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';
import { quoted, signedMentionsOf, signedReportOf } from './signed-report-facts.js';

/**
 * Anatomy the model does not assess (issue 49 item 10): the airway and the mediastinum, the
 * pleural angles, the diaphragm, bones and soft tissues. The answer says so for what was asked,
 * names what is stored nearest to it (the anatomy stage's outlines, the effusion output), quotes
 * the signed report where it speaks of it, and sends the reader to the film. Never the
 * probability list.
 */

interface TTopic {
  name: string;
  asked: RegExp;
  /** Words the signed report may use for it. */
  words: string[];
}

const TOPICS: TTopic[] = [
  {
    name: 'the airway and the tracheal position',
    asked: /trache|airway|carina|main ?bronch/,
    words: ['trachea', 'tracheal', 'airway', 'carina'],
  },
  {
    name: 'the mediastinum (its width, position and contour) and the hila',
    asked: /mediastin|\bhil(um|a|ar)\b|aort|knuckle/,
    words: ['mediastinum', 'mediastinal', 'hila', 'hilar', 'hilum', 'aorta', 'aortic'],
  },
  {
    name: 'the costophrenic (pleural) angles',
    asked: /costophrenic|\bcp ?angles?\b|\bcpas?\b|pleural angles?|\bangles?\b/,
    words: ['costophrenic', 'cp angle', 'angles'],
  },
  {
    name: 'the diaphragm and any air under it',
    asked: /diaphragm|free air|pneumoperitoneum/,
    words: ['diaphragm', 'hemidiaphragm', 'free air', 'pneumoperitoneum'],
  },
  {
    name: 'the bones (ribs, clavicles, shoulders and spine)',
    asked: /\bbon(e|es|y)\b|\bribs?\b|clavic|spine|spinal|vertebr|scapul|skelet|lytic|sclerotic/,
    words: ['bone', 'bony', 'rib', 'ribs', 'clavicle', 'spine', 'vertebra', 'osseous', 'skeletal'],
  },
  {
    name: 'the soft tissues',
    asked: /soft tissue|subcutaneous|breast|surgical emphysema/,
    words: ['soft tissue', 'subcutaneous', 'breast'],
  },
];

/** The stored facts nearest to a topic, or null. */
function nearest(ctx: TResponderContext, topic: TTopic): string | null {
  const { result } = ctx;
  if (topic === TOPICS[2]) {
    const effusion = result.findings.find((f) => f.label === 'pleural_effusion');
    return effusion
      ? `The nearest output is the pleural effusion finding (fluid blunts the angles): ${findingSentence(effusion)}. It is not a read of the angles.`
      : null;
  }
  if (topic === TOPICS[1] && result.anatomy?.ctr != null)
    return `The anatomy stage outlines the heart, not the mediastinum: its cardiothoracic ratio (${ratio(result.anatomy.ctr)}) measures the heart's width only.`;
  return null;
}

export function anatomyNotAssessed(ctx: TResponderContext): string {
  const q = ctx.query.toLowerCase();
  const asked = TOPICS.filter((t) => t.asked.test(q));
  const topics = asked.length ? asked : TOPICS;
  const stage = ctx.result.anatomy
    ? 'Its anatomy stage outlines only the lungs and the heart (shown as contours in the viewer).'
    : 'This model version has no anatomy stage.';
  const report = signedReportOf(ctx);
  const lines = topics.map((t) => {
    const near = nearest(ctx, t);
    const said = report ? signedMentionsOf(report, t.words) : [];
    const signed = said.length ? `\n\n  The signed report says:\n${quoted(said).replace(/^/gm, '  ')}` : '';
    return `**${t.name[0]!.toUpperCase()}${t.name.slice(1)}: not assessed by the model.**${near ? ` ${near}` : ''}${signed}`;
  });
  return (
    `This model version has no output for ${asked.length ? 'what you asked about' : 'these parts of the film'}. ${stage}\n\n${bullets(lines)}\n\n` +
    'A reader must check them on the film itself; the model saying nothing about them is not a normal read.' +
    closing
  );
}
