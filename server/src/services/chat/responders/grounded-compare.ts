import { changeSentences, comparisonHeading, ctrChangeText, RULE_TEXT } from '../../timeline/comparison-text.js';
import { bullets, closing } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/**
 * The comparison with the patient's previous analysis, from the two stored results only; or why
 * there is nothing to compare with. Never a guess about the earlier film itself.
 */
export function compareWithPrevious(ctx: TResponderContext): string {
  const c = ctx.comparison;
  if (!c) {
    return (
      'There is no earlier analysis to compare with: this chat is either not linked to a saved patient profile, ' +
      'or this is the first completed analysis of that patient. Start the next analysis from the same profile and its report will compare the two.' +
      closing
    );
  }
  const ctr = ctrChangeText(c);
  const findings = c.findings.length
    ? bullets(changeSentences(c))
    : '- The two model versions report no finding in common.';
  const notes = [...(ctr ? [`${ctr}.`] : []), ...c.caveats];
  return (
    `${comparisonHeading(c)} (model ${c.modelVersions.previous} then ${c.modelVersions.current}), from the two stored results:\n\n${findings}` +
    `${notes.length ? `\n\n${bullets(notes)}` : ''}\n\n${RULE_TEXT} The comparison describes the model's outputs, not the disease; compare the films themselves.${closing}`
  );
}
