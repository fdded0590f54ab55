import { LUNG_ZONES } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { groundedAnswer } from './grounded-responder.js';
import { displayOf, figureText } from './grounded-scope.js';
import { share } from './grounded-where.js';
import type { TResponderContext } from './responder.js';

/**
 * The stored facts a language model gets beyond the result's figures (issue 27): where each
 * finding's heatmap evidence lies, the model card's measured figures, and the grounded answer to
 * this very question as a reference it may rephrase but not add to. The same lines are what its
 * answer is checked against (check-llm-answer.ts).
 */
export function llmFactLines(ctx: TResponderContext): string[] {
  const { result, metrics } = ctx;
  const zones = (result.heatmapZones ?? []).map(
    (h) =>
      `- ${displayOf(result, h.label)}: ${LUNG_ZONES.map((z) => `patient's ${z.replace('_', ' ')} ${share(h.zones[z])}`).join(', ')}`,
  );
  const card = metrics
    ? result.findings
        .filter((f) => f.label !== SUMMARY_LABEL)
        .map((f) => `- ${f.display}: ${figureText(metrics.findings[f.label]) ?? 'no measured figure'}`)
    : [];
  return [
    ...(zones.length
      ? [
          "Share of each finding's heatmap evidence inside the lungs by zone (the model's evidence, not a measured lesion):",
          ...zones,
        ]
      : []),
    ...(card.length
      ? [`Model card (${metrics!.modelName} ${metrics!.modelVersion}) measured performance:`, ...card]
      : []),
    'Reference answer built from the stored facts (rephrase it if you like; never add a figure, a finding or a decision to it):',
    groundedAnswer(ctx),
  ];
}
