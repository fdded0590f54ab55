import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { AppDeps } from '../../../server/src/deps.js';
import { ZGateVerdict, ZWorkerAnatomy, type TStoredResult, type TWorkerResult } from '@contracts/schemas/analysis.js';
import { createAnalysis } from '../../../server/src/services/analysis/create-analysis.js';
import { finalizeAnalysis } from '../../../server/src/services/analysis/finalize-analysis.js';
import { multipart } from '../../helpers/post-multipart.js';

/** Committed test-split radiographs (tests/fixtures/cxr/README.md): no test reads the data sets. */
const RADIOGRAPH_DIR = fileURLToPath(new URL('../../fixtures/cxr/', import.meta.url));
export const MODEL_DIR = process.env.MODEL_DIR ?? 'models/cxr';
export const modelInstalled = (): boolean => existsSync(join(MODEL_DIR, 'manifest.json'));
export const META = { ip: '127.0.0.1', requestId: 'test' };

/** The committed radiographs, optionally of one label (the file name starts with it). */
export function testRadiographs(label?: 'normal' | 'pneumonia' | 'covid19', limit = 30): string[] {
  return readdirSync(RADIOGRAPH_DIR)
    .filter((f) => f.endsWith('.jpg') && (!label || f.startsWith(`${label}-`)))
    .sort()
    .slice(0, limit)
    .map((f) => join(RADIOGRAPH_DIR, f));
}

/** A real radiograph, upscaled to `side` pixels wide (JPEG), optionally with EXIF attached. */
export async function radiograph(
  opts: { label?: 'normal' | 'pneumonia' | 'covid19'; index?: number; side?: number; exif?: boolean } = {},
): Promise<Buffer> {
  const file = testRadiographs(opts.label, (opts.index ?? 0) + 1)[opts.index ?? 0];
  if (!file) throw new Error('no such radiograph fixture');
  const side = opts.side ?? 512;
  let img = sharp(file).resize(side, Math.round(side * 1.1), { kernel: 'lanczos3' });
  if (opts.exif) img = img.withExif({ IFD0: { Artist: 'Jane Patient', ImageDescription: 'DOB 1970-01-01' } });
  return img.jpeg({ quality: 92 }).toBuffer();
}

/** A colour photograph-like image (gradient and noise): not a chest radiograph. */
export async function colourPhoto(): Promise<Buffer> {
  const w = 400;
  const h = 300;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 255) / w;
      raw[i + 1] = 120 + ((x * y) % 60);
      raw[i + 2] = (y * 255) / h;
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg()
    .toBuffer();
}

export const PATIENT = {
  full_name: 'Ada Example',
  age: 34,
  medical_history: 'Smoker: 10 pack-years; Symptoms: cough, fever',
};

export function uploadBody(
  image: Buffer,
  profile: object | string = PATIENT,
  extra: { name: string; value: string }[] = [],
) {
  return multipart([
    { name: 'profile', value: typeof profile === 'string' ? profile : JSON.stringify(profile) },
    { name: 'image', value: image, filename: 'xray.jpg', type: 'image/jpeg' },
    ...extra,
  ]);
}

/**
 * A structured result shaped exactly as the worker sends it (the pipeline's AnalysisResult with
 * heatmap arrays dropped). Used where a test is about the server's side of the flow and must
 * not depend on what the model happens to say about one image.
 */
export function sampleResult(over: Partial<TStoredResult> = {}): TStoredResult {
  return {
    modelVersion: 'test-1.0.0',
    modelName: 'cxr-test',
    gate: { accepted: true, reason: null, flags: ['low_contrast'], code: null },
    findings: [
      { label: 'covid19', display: 'COVID-19', probability: 0.0412, threshold: 0.35, call: 'negative' },
      { label: 'pneumonia', display: 'Pneumonia', probability: 0.8731, threshold: 0.42, call: 'positive' },
      {
        label: 'pneumonia_bacterial',
        display: 'Bacterial pneumonia',
        probability: 0.5102,
        threshold: 0.3,
        call: 'positive',
      },
      { label: 'pneumonia_viral', display: 'Viral pneumonia', probability: 0.3629, threshold: 0.33, call: 'uncertain' },
      { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.9143, threshold: 0.5, call: 'positive' },
    ],
    topFinding: 'pneumonia',
    heatmaps: [],
    image: { width: 512, height: 563 },
    timingsMs: { total: 120 },
    ...over,
  };
}

/** Outlines in the unit square, shaped like the anatomy stage's (two lung fields, one heart). */
export const SAMPLE_CONTOURS = {
  lung: 'M0.18 0.2 L0.44 0.16 L0.46 0.82 L0.14 0.78 Z M0.56 0.16 L0.82 0.2 L0.86 0.78 L0.54 0.82 Z',
  heart: 'M0.4 0.5 C0.42 0.44 0.6 0.44 0.66 0.56 L0.62 0.76 L0.42 0.76 Z',
};

/**
 * A model-2 result: multi-label findings (only some shipped), the anatomy stage's CTR and
 * contours, and the candidates that did not ship as `notAssessed`. Hand-made, not the model's.
 */
export function sampleResultV2(over: Partial<TStoredResult> = {}): TStoredResult {
  return {
    modelVersion: 'test-2.0.0',
    modelName: 'cxr-lungcrop-test',
    gate: { accepted: true, reason: null, flags: [], code: null },
    findings: [
      { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.8812, threshold: 0.5, call: 'positive' },
      {
        label: 'pneumonia',
        display: 'Pneumonia / lung opacity',
        probability: 0.2214,
        threshold: 0.45,
        call: 'negative',
      },
      { label: 'covid19', display: 'COVID-19 pattern', probability: 0.0315, threshold: 0.4, call: 'negative' },
      { label: 'cardiomegaly', display: 'Cardiomegaly', probability: 0.7408, threshold: 0.55, call: 'positive' },
      {
        label: 'pleural_effusion',
        display: 'Pleural effusion',
        probability: 0.4977,
        threshold: 0.5,
        call: 'uncertain',
      },
    ],
    anatomy: { ctr: 0.5634, ctrReference: 0.5, lungBox: [0.1, 0.12, 0.9, 0.86], contours: SAMPLE_CONTOURS, flags: [] },
    notAssessed: [
      { label: 'hernia', display: 'Hernia' },
      { label: 'fibrosis', display: 'Fibrosis' },
      { label: 'atelectasis', display: 'Atelectasis' },
    ],
    topFinding: 'cardiomegaly',
    heatmaps: [],
    image: { width: 1024, height: 1024 },
    timingsMs: { total: 180 },
    ...over,
  };
}

/** A stored-result fixture as the worker sends it: codes without their sentences (the finalizer words them). */
export function workerResultOf(stored: TStoredResult): TWorkerResult {
  const { accepted, code, flags } = stored.gate;
  const gate = ZGateVerdict.parse({ accepted, code: code ?? null, flags });
  const { anatomy, ...rest } = stored;
  const sent: TWorkerResult = { ...rest, gate };
  if (anatomy !== undefined) sent.anatomy = anatomy && ZWorkerAnatomy.parse(anatomy);
  return sent;
}

export const refusedResult = (): TStoredResult =>
  sampleResult({
    gate: {
      accepted: false,
      reason: 'The image appears to be a colour photograph, not a radiograph.',
      flags: [],
      code: 'colour',
    },
    findings: [],
    topFinding: null,
  });

/** A small radiograph uploaded through the real service: its analysis is queued, no worker has run. */
export async function queuedAnalysis(deps: AppDeps, userId: string, patient: object = PATIENT) {
  return createAnalysis({
    ...deps,
    meta: META,
    userId,
    raw: { image: await radiograph({ side: 256 }), profileJson: JSON.stringify(patient), profileId: null },
  });
}

/** A chat with a finished analysis, made through the real upload and finalizer code. */
export async function analysedChat(
  deps: AppDeps,
  userId: string,
  result: TStoredResult = sampleResult(),
  patient: object = PATIENT,
) {
  const created = await queuedAnalysis(deps, userId, patient);
  await finalizeAnalysis({
    ...deps,
    job: { analysisId: created.analysisId, result: workerResultOf(result), heatmap: null },
  });
  return created;
}
