import { confusionAt, rocAuc, sensitivity, specificity, type TConfusion } from './metrics.js';
import { findingLabels, type TResultRow } from './results.js';

export interface TFindingSummary {
  label: string;
  positives: number;
  negatives: number;
  auc: number | null;
  /** The model's own operating threshold for this finding (median across images: it is fixed per model). */
  threshold: number;
  sensitivity: number | null;
  specificity: number | null;
  confusion: TConfusion;
}

export interface TBatchSummary {
  images: number;
  analysed: number;
  refusedByGate: number;
  notAnalysed: number;
  modelVersions: string[];
  findings: TFindingSummary[];
  /** True label (rows) against the model's top finding ('none' when nothing was called). */
  confusionMatrix: { labels: string[]; predicted: string[]; counts: number[][] };
}

/**
 * Evaluates a labelled batch. A row's `label` names the true finding (e.g. 'pneumonia'), several
 * separated by ';', or anything else (e.g. 'normal') for none. Only images the gate accepted
 * are scored; refusals and failures are counted separately.
 */
export function summarise(rows: readonly TResultRow[]): TBatchSummary {
  const labelled = rows.filter((r) => r.input.label !== null);
  const scored = labelled.filter((r) => r.outcome.status === 'completed' && r.outcome.accepted);
  const labels = findingLabels(scored);
  const truth = (r: TResultRow) =>
    new Set(
      (r.input.label ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  const findings = labels.map((label): TFindingSummary => {
    const items = scored.flatMap((r) => {
      const f = r.outcome.findings.find((x) => x.label === label);
      return f ? [{ score: f.probability, positive: truth(r).has(label), threshold: f.threshold }] : [];
    });
    const thresholds = items.map((i) => i.threshold).sort((a, b) => a - b);
    const threshold = thresholds[Math.floor(thresholds.length / 2)] ?? 0.5;
    const confusion = confusionAt(items, threshold);
    const positives = items.filter((i) => i.positive).length;
    return {
      label,
      positives,
      negatives: items.length - positives,
      auc: rocAuc(items),
      threshold,
      sensitivity: sensitivity(confusion),
      specificity: specificity(confusion),
      confusion,
    };
  });
  const trueClasses = [...new Set(scored.map((r) => r.input.label ?? ''))].sort();
  const predicted = [...new Set([...labels, 'none'])];
  const counts = trueClasses.map((t) =>
    predicted.map((p) => scored.filter((r) => r.input.label === t && (r.outcome.topFinding ?? 'none') === p).length),
  );
  return {
    images: labelled.length,
    analysed: scored.length,
    refusedByGate: labelled.filter((r) => r.outcome.status === 'refused' || r.outcome.accepted === false).length,
    notAnalysed: labelled.filter((r) => r.outcome.status === 'rejected' || r.outcome.status === 'failed').length,
    modelVersions: [...new Set(scored.map((r) => r.outcome.modelVersion).filter((v): v is string => !!v))],
    findings,
    confusionMatrix: { labels: trueClasses, predicted, counts },
  };
}

const f3 = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));

export function summaryMarkdown(s: TBatchSummary): string {
  const lines = [
    '# Batch evaluation',
    '',
    `Images with a label: ${s.images}; analysed: ${s.analysed}; refused by the image check: ${s.refusedByGate}; not analysed (rejected or failed): ${s.notAnalysed}.`,
    `Model version(s): ${s.modelVersions.join(', ') || 'n/a'}.`,
    '',
    "## Per finding (at the model's operating threshold)",
    '',
    '| Finding | Positives | Negatives | ROC AUC | Threshold | Sensitivity | Specificity | TP | FP | FN | TN |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...s.findings.map(
      (f) =>
        `| ${f.label} | ${f.positives} | ${f.negatives} | ${f3(f.auc)} | ${f.threshold.toFixed(3)} | ${f3(f.sensitivity)} | ${f3(f.specificity)} | ${f.confusion.tp} | ${f.confusion.fp} | ${f.confusion.fn} | ${f.confusion.tn} |`,
    ),
    '',
    '## Confusion matrix (true label × top finding)',
    '',
    `| true \\ predicted | ${s.confusionMatrix.predicted.join(' | ')} |`,
    `|---|${s.confusionMatrix.predicted.map(() => '---').join('|')}|`,
    ...s.confusionMatrix.labels.map((t, i) => `| ${t} | ${(s.confusionMatrix.counts[i] ?? []).join(' | ')} |`),
    '',
    'AUC is undefined (n/a) for a finding without both positive and negative images. A label that is not a finding (e.g. normal) counts as negative for every finding.',
    '',
  ];
  return lines.join('\n');
}
