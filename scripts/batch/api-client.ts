import { openAsBlob } from 'node:fs';
import { extname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TOutcome } from './state-store.js';

export interface TApi {
  url: string;
  key: string;
  waitSeconds: number;
}

/** Stops the whole batch: nothing will work until the user fixes the key or the URL. */
export class FatalApiError extends Error {}
/** Worth retrying on a later run (server busy, restarting, network down). */
export class TransientApiError extends Error {}
/** No connection at all: several of these in a row mean the server went away mid-run. */
export class ConnectionLostError extends TransientApiError {}

const MEDIA_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.dcm': 'application/dicom',
  '.dicom': 'application/dicom',
};

interface TExportDoc {
  analysis: { status: 'completed' | 'refused' };
  model: { version: string };
  gate: { accepted: boolean; reason: string | null };
  findings: { label: string; probability: number; threshold: number; call: string }[];
  /** Absent before report@2; `reason` absent means the model version cannot back the finding at all. */
  notAssessed?: { label: string; reason?: string }[];
  /** report@5 (model 4): outputs withdrawn from the findings after external validation. */
  withdrawn?: { label: string }[];
  topFinding: { label: string } | null;
}

const WITHDRAWN_REASON = 'withdrawn from this model version after external validation';

async function call(api: TApi, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`${api.url}${path}`, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${api.key}` },
    });
  } catch (err) {
    throw new ConnectionLostError(`cannot reach ${api.url}: ${(err as Error).message}`);
  }
}

async function messageOf(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  return body?.message ?? `HTTP ${res.status}`;
}

/** Retries busy/unavailable answers a few times with backoff, then gives up for this run. */
async function withRetries(label: string, attempt: () => Promise<Response>): Promise<Response> {
  for (let i = 0; ; i++) {
    const res = await attempt().catch((err: unknown) => {
      if (err instanceof TransientApiError && i < 3) return null;
      throw err;
    });
    if (res && res.status !== 429 && res.status !== 503 && res.status !== 502 && res.status !== 504) return res;
    if (i >= 3) throw new TransientApiError(`${label}: ${res ? await messageOf(res) : 'no answer'}`);
    const retryAfter = Number(res?.headers.get('retry-after'));
    await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000 * 2 ** i);
  }
}

/** The finished analysis, read through the JSON export; waits while it is still running. */
async function fetchResult(api: TApi, chatId: string): Promise<TExportDoc | null> {
  const deadline = Date.now() + api.waitSeconds * 1000;
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    const res = await withRetries('result', () => call(api, `/api/export/${chatId}.json`));
    if (res.ok) return (await res.json()) as TExportDoc;
    if (res.status !== 409) throw new TransientApiError(`result: ${await messageOf(res)}`);
    if (Date.now() > deadline) return null;
    await sleep(delay);
  }
}

/** Uploads one image and returns its final outcome (or throws a Fatal/Transient error). */
export async function analyseImage(
  api: TApi,
  file: string,
  absPath: string,
  sha256: string,
  patient: Record<string, string>,
): Promise<TOutcome> {
  const base: TOutcome = {
    sha256,
    status: 'failed',
    chatId: null,
    accepted: null,
    gateReason: null,
    modelVersion: null,
    topFinding: null,
    findings: [],
    error: null,
  };
  const ext = extname(file).toLowerCase();
  const res = await withRetries('upload', async () => {
    const form = new FormData();
    // Read from disk as the request streams, not held in memory; a neutral name, because file
    // names often carry patient names or record numbers.
    const image = await openAsBlob(absPath, { type: MEDIA_TYPES[ext] ?? 'application/octet-stream' });
    form.append('image', image, `image${ext}`);
    if (Object.keys(patient).length) form.append('profile', JSON.stringify(patient));
    return call(api, '/api/chat/analyzer', { method: 'POST', body: form });
  });
  const body = (await res.json().catch(() => null)) as { message?: string; data?: { chat_id?: string } } | null;
  if (res.status === 401 || res.status === 403)
    throw new FatalApiError(`The server refused the API key (${body?.message ?? res.status}).`);
  const chatId = body?.data?.chat_id ?? null;
  if (res.status >= 400 && res.status < 500)
    return { ...base, status: 'rejected', error: body?.message ?? `HTTP ${res.status}` };
  if (!chatId) throw new TransientApiError(`upload: ${body?.message ?? `HTTP ${res.status}`}`);
  if (res.status >= 500) return { ...base, chatId, status: 'failed', error: body?.message ?? `HTTP ${res.status}` };

  const doc = await fetchResult(api, chatId);
  // Not recorded as done: the next run submits it again rather than losing the image.
  if (!doc) throw new TransientApiError(`no result within ${api.waitSeconds}s (chat ${chatId})`);
  return {
    ...base,
    status: doc.analysis.status,
    chatId,
    accepted: doc.gate.accepted,
    gateReason: doc.gate.reason,
    modelVersion: doc.model.version,
    topFinding: doc.topFinding?.label ?? null,
    findings: doc.findings.map((f) => ({
      label: f.label,
      probability: f.probability,
      threshold: f.threshold,
      call: f.call,
    })),
    notAssessed: [
      ...(doc.notAssessed ?? []).map((n) => ({ label: n.label, reason: n.reason ?? null })),
      ...(doc.withdrawn ?? []).map((w) => ({ label: w.label, reason: WITHDRAWN_REASON })),
    ],
  };
}
