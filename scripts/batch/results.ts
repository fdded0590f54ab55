import { formatCsv } from './csv.js';
import type { TBatchInput } from './list-inputs.js';
import type { TOutcome } from './state-store.js';

export interface TResultRow {
  input: TBatchInput;
  outcome: TOutcome;
}

/** Finding labels in the order the model reports them (first outcome that has them wins). */
export function findingLabels(rows: readonly TResultRow[]): string[] {
  const labels: string[] = [];
  for (const { outcome } of rows) for (const f of outcome.findings) if (!labels.includes(f.label)) labels.push(f.label);
  return labels;
}

/** One line per input file: verdict, probabilities and calls per label, model version, chat id. */
export function resultsCsv(rows: readonly TResultRow[]): string {
  const labels = findingLabels(rows);
  const hasLabels = rows.some((r) => r.input.label !== null);
  const hasFindings = rows.some((r) => r.input.findings !== null);
  const header = [
    'file',
    'sha256',
    ...(hasLabels ? ['label'] : []),
    ...(hasFindings ? ['findings'] : []),
    'status',
    'accepted',
    'gate_reason',
    ...labels.map((l) => `p_${l}`),
    ...labels.map((l) => `call_${l}`),
    'top_finding',
    'model_version',
    'chat_id',
    'error',
  ];
  const body = rows.map(({ input, outcome: o }) => {
    const byLabel = new Map(o.findings.map((f) => [f.label, f]));
    return [
      input.file,
      o.sha256,
      ...(hasLabels ? [input.label ?? ''] : []),
      ...(hasFindings ? [input.findings ?? ''] : []),
      o.status,
      o.accepted === null ? '' : o.accepted,
      o.gateReason ?? '',
      ...labels.map((l) => byLabel.get(l)?.probability.toFixed(4) ?? ''),
      ...labels.map((l) => byLabel.get(l)?.call ?? ''),
      o.topFinding ?? '',
      o.modelVersion ?? '',
      o.chatId ?? '',
      o.error ?? '',
    ];
  });
  return formatCsv(header, body);
}
