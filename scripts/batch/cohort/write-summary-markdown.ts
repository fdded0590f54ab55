import { escapeMarkdown as md, markdownCode } from '@contracts/neutralise-text.js';
import type { TBatchSummary, TCohortTable, TFindingSummary } from '@contracts/schemas/batch-summary.js';

const f3 = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
const ci = (v: [number, number] | null) => (v ? ` (${v[0].toFixed(3)}–${v[1].toFixed(3)})` : '');
const withCi = (v: number | null, interval: [number, number] | null) => `${f3(v)}${v === null ? '' : ci(interval)}`;

/** A file name as a link target: percent-encoded, parentheses included, so it cannot end the link. */
const linkTarget = (file: string) =>
  encodeURIComponent(file).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

type TRow = Omit<TFindingSummary, 'finding' | 'leftOut'> & { finding: string; leftOut?: number };

function metricsTable(rows: readonly TRow[]): string[] {
  return [
    '| Finding | Pos | Neg | AUROC (95 % CI) | Threshold | Sensitivity (95 % CI) | Specificity (95 % CI) | PPV | NPV | Note |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.finding} | ${r.positives} | ${r.negatives} | ${withCi(r.auroc, r.aurocCi)} | ${f3(r.threshold)}${r.thresholdVaries ? ' (varies)' : ''} | ` +
        `${withCi(r.sensitivity, r.sensitivityCi)} | ${withCi(r.specificity, r.specificityCi)} | ${withCi(r.ppv, r.ppvCi)} | ${withCi(r.npv, r.npvCi)} | ` +
        [r.note, r.leftOut ? `${r.leftOut} film(s) left out: truth unknown for this finding` : null]
          .filter(Boolean)
          .join('; ') +
        ' |',
    ),
  ];
}

const tableOf = (t: Pick<TCohortTable, 'findings' | 'triage'>) =>
  metricsTable([...t.findings, { ...t.triage, finding: 'triage (any finding)' }]);

/**
 * `<out>.summary.md`: the same figures as the JSON, for reading and pasting into a paper draft.
 * What the user typed (group values, finding names from the CSV, file names, the command) goes
 * through escapeMarkdown or a code span: a group named `<img onerror=…>` is text, not HTML. Finding
 * names, notes and figures are the model's and this command's own words.
 */
export function writeSummaryMarkdown(s: TBatchSummary): string {
  const r = s.reproducibility;
  const lines = [
    '# Cohort evaluation',
    '',
    `Films with ground truth: ${s.images}; analysed: ${s.analysed}; refused by the image check: ${s.refusedByGate}; not analysed (rejected or failed): ${s.notAnalysed}.`,
    `Model version(s): ${md(r.modelVersions.join(', ')) || 'n/a'}; model sha256: ${r.modelSha256 ?? `n/a (${r.modelSha256Note ?? ''})`}.`,
    `Intervals: 95 %, AUROC by percentile bootstrap (${r.bootstrapResamples} resamples, seed ${r.seed}, ` +
      (s.groupedByPatient ? `resampling ${s.clusters} patients` : `resampling ${s.clusters} films: no patient column`) +
      '); sensitivity, specificity, PPV and NPV by Wilson score. PPV and NPV are at this cohort’s prevalence.',
    '',
    "## Per finding, at the model's operating point",
    '',
    ...tableOf(s),
    '',
    `Triage: ${s.triage.explanation}.`,
    '',
  ];
  if (s.notAssessed.length)
    lines.push(
      '## Not assessed by this model',
      '',
      ...s.notAssessed.map(
        (n) => `- ${n.finding}: ${n.positives} positive film(s), ${n.reason}${n.detail ? ` (${n.detail})` : ''}`,
      ),
      '',
    );
  if (s.unrecognised.length)
    lines.push(
      '## Finding names not recognised',
      '',
      ...s.unrecognised.map(
        (u) =>
          `- "${md(u.name)}": ${u.rows} row(s) (${u.lines.join(', ')}${u.rows > u.lines.length ? ', …' : ''})` +
          (u.suggestion
            ? `; did you mean ${u.suggestion}? Those films are left out of it`
            : '; counted for no finding'),
      ),
      '',
    );
  for (const [group, table] of Object.entries(s.groups))
    lines.push(
      `## Group: ${md(group)} (${table.films} film${table.films === 1 ? '' : 's'})`,
      '',
      ...tableOf(table),
      '',
    );
  lines.push(
    '## Calibration',
    '',
    '| Finding | Films | ECE | Brier |',
    '|---|---|---|---|',
    ...s.calibration.map((c) => `| ${c.finding} | ${c.n} | ${f3(c.ece)} | ${f3(c.brier)} |`),
    '',
    `![ROC curves](${linkTarget(s.plots.roc)})`,
    '',
    `![Calibration](${linkTarget(s.plots.calibration)})`,
    '',
  );
  if (s.compare)
    lines.push(
      `## Compared with ${md(s.compare.other.file)} (model ${md(s.compare.other.modelVersions.join(', ')) || 'n/a'})`,
      '',
      '| Finding | Films | AUROC here | AUROC other | Difference (paired 95 % CI) | Note |',
      '|---|---|---|---|---|---|',
      ...s.compare.findings.map(
        (c) =>
          `| ${c.finding} | ${c.films} | ${f3(c.auroc)} | ${f3(c.aurocOther)} | ${withCi(c.difference, c.differenceCi)} | ${c.note ?? ''} |`,
      ),
      '',
    );
  lines.push(
    `Command: ${markdownCode(r.command)}; CSV sha256: ${r.csvSha256 ?? 'n/a (a folder)'}; date: ${r.date}.`,
    '',
  );
  return lines.join('\n');
}
