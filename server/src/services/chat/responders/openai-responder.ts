import { trainingDataNoteFor } from '../../../knowledge/cxr-conditions.js';
import {
  ageYears,
  assessedNames,
  heartSizeLines,
  notAssessedLine,
  projectionLine,
  withdrawnLines,
} from '../../analysis/anatomy-text.js';
import { DISCLAIMER, pct } from '../../analysis/compose-report.js';
import { ungroundedNumbers } from './check-llm-answer.js';
import { groundedAnswer } from './grounded-responder.js';
import { llmFactLines } from './llm-facts.js';
import type { Responder, TResponderContext } from './responder.js';

export interface TOpenAiOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Whole-reply limit; a stalled server must not hold a request forever. */
  timeoutMs?: number;
  /** How many earlier chat messages are sent along (the report is always the first). */
  historyLimit?: number;
}

/**
 * The system prompt binds the model to the stored result: it may explain, never add findings.
 * The patient's name is never sent; age and history are, because the answer should use them.
 */
export function systemPrompt(ctx: TResponderContext): string {
  const r = ctx.result;
  const findings = r.findings.map(
    (f) =>
      `- ${f.display}: probability ${pct(f.probability)}, threshold ${pct(f.threshold)}, model's call: ` +
      (f.call === 'possible'
        ? 'possible (flagged for review below 50 %: more likely absent; never say likely)'
        : f.call),
  );
  return [
    'You are an assistant helping a clinician discuss the output of a chest X-ray classifier.',
    'Ground every statement in the structured result below. Quote probabilities exactly as written.',
    'Never state or suggest a finding that the model did not call positive; say "the model did not call it".',
    `The model only assesses the findings listed below (${assessedNames(r).join(', ') || 'none'}): for any other condition say this model version does not assess it.`,
    'Never give a certain diagnosis. End every answer with the disclaimer.',
    '',
    `Model: ${r.modelName} version ${r.modelVersion}`,
    `Image accepted: ${r.gate.accepted ? 'yes' : `no (${r.gate.reason ?? 'refused'})`}; quality flags: ${r.gate.flags.join(', ') || 'none'}`,
    'Findings:',
    ...findings,
    `Top finding: ${r.findings.find((f) => f.label === r.topFinding)?.display ?? 'none called positive'}`,
    ...[notAssessedLine(r.notAssessed), projectionLine(r.projection), ...withdrawnLines(r.withdrawn)].filter(
      (l): l is string => l !== null,
    ),
    ...(heartSizeLines(r.anatomy, ageYears(ctx.patient.age), r)?.map((l) => `Heart size: ${l}`) ?? []),
    `Patient age: ${ctx.patient.age || 'unknown'}; medical history: ${ctx.patient.medical_history}`,
    `Training data caveat: ${trainingDataNoteFor(r)}`,
    'Quote no number that is not written below or above: an answer with any other number is not shown.',
    ...llmFactLines(ctx),
    `Disclaimer: ${DISCLAIMER}`,
  ].join('\n');
}

/** Said before the grounded answer when the language model's answer quoted an unbacked number. */
export const GUARD_NOTE =
  "The language model's answer quoted a figure that is not in the stored result or the model card, so it is not shown. The answer from the stored facts:";

/**
 * Any server speaking OpenAI's chat-completions API with `stream: true` (Ollama, vLLM,
 * llama.cpp server): reads the server-sent events, and once the answer is complete checks it
 * against the stored facts it was given (check-llm-answer.ts) before any of it is shown: an
 * answer quoting a number those facts do not back is replaced by the grounded answer.
 */
export function openAiResponder(opts: TOpenAiOptions): Responder {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'openai',
    async *reply(ctx, signal) {
      const history = ctx.history.filter((m) => m.role !== 'system').slice(-(opts.historyLimit ?? 20));
      const timeout = AbortSignal.timeout(opts.timeoutMs ?? 120_000);
      const system = systemPrompt(ctx);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: opts.model,
          stream: true,
          temperature: 0.2,
          messages: [{ role: 'system', content: system }, ...history, { role: 'user', content: ctx.query }],
        }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!res.ok || !res.body) throw new Error(`LLM server answered ${res.status}`);
      const reader = res.body.getReader();
      let text = '';
      try {
        for await (const chunk of readEvents(reader)) text += chunk;
      } finally {
        await reader.cancel().catch(() => undefined);
      }
      const facts = [system, ...history.map((m) => m.content), ctx.query];
      const shown = ungroundedNumbers(text, facts).length ? `${GUARD_NOTE}\n\n${groundedAnswer(ctx)}` : text;
      for (const chunk of shown.match(/\S+\s*|\s+/g) ?? []) yield chunk;
    },
  };
}

/** The `delta.content` of each server-sent event until `data: [DONE]` or the end of the body. */
async function* readEvents(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      const text = deltaOf(data);
      if (text) yield text;
    }
  }
}

function deltaOf(data: string): string | null {
  try {
    const parsed = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] };
    const content = parsed.choices?.[0]?.delta?.content;
    return typeof content === 'string' ? content : null;
  } catch {
    return null;
  }
}
