import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { analyses, messages } from '../../server/src/db/schema.js';
import type { AppDeps } from '../../server/src/deps.js';
import { createChat, storeImage } from '../helpers/factories.js';
import { testPatientName } from '../helpers/test-patients.js';

export const RESULT = {
  modelVersion: '2025.11-test',
  modelName: 'cxr-resnet-test',
  gate: { accepted: true, reason: null, flags: ['low_contrast'] },
  findings: [
    { label: 'pneumonia', display: 'Pneumonia', probability: 0.873, threshold: 0.42, call: 'positive' },
    { label: 'covid19', display: 'COVID-19', probability: 0.061, threshold: 0.35, call: 'negative' },
    { label: 'abnormal', display: 'Any abnormality', probability: 0.4, threshold: 0.41, call: 'uncertain' },
  ],
  topFinding: 'pneumonia',
  // Issue 42: each flagged finding's heat values; the stored result keeps no other.
  heatmaps: [{ label: 'pneumonia', width: 7, height: 7, grid: { width: 3, height: 2, values: 'AP+AACgA' } }],
  image: { width: 224, height: 224 },
  timingsMs: { total: 120 },
} as const;

/** A model-2 result: shipped findings, the anatomy stage's CTR and outlines, the candidates not assessed. */
export const RESULT_V2 = {
  ...RESULT,
  modelVersion: '2026.01-test',
  findings: [
    { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.81, threshold: 0.5, call: 'positive' },
    { label: 'cardiomegaly', display: 'Cardiomegaly', probability: 0.74, threshold: 0.55, call: 'positive' },
    { label: 'pleural_effusion', display: 'Pleural effusion', probability: 0.12, threshold: 0.5, call: 'negative' },
  ],
  topFinding: 'cardiomegaly',
  anatomy: {
    ctr: 0.5634,
    ctrReference: 0.5,
    lungBox: [0.1, 0.12, 0.9, 0.86],
    contours: {
      lung: 'M0.18 0.2 L0.44 0.16 L0.46 0.82 L0.14 0.78 Z',
      heart: 'M0.4 0.5 L0.66 0.56 L0.62 0.76 L0.42 0.76 Z',
    },
    flags: [],
  },
  notAssessed: [
    { label: 'hernia', display: 'Hernia' },
    { label: 'fibrosis', display: 'Fibrosis' },
  ],
} as const;

export const REPORT_MD = [
  '## Chest X-ray analysis',
  '',
  '### Impression',
  '',
  "The model's output is consistent with **Pneumonia** (probability 87.3%, threshold 42.0%).",
  '',
  '### Suggested next steps',
  '',
  '- clinical correlation',
  '',
  '---',
  '*Assistive only.*',
].join('\n');

/** A chat as the finalizer leaves it: completed analysis with a result, report message, overlay. */
export async function createAnalysedChat(deps: Pick<AppDeps, 'db' | 'images' | 'config'>, userId: string) {
  const patient = {
    full_name: `${testPatientName('Zoë')} Łukasz`,
    age: '57',
    medical_history: 'Allergies: penicillin; Smoker: 10 pack-years',
  };
  const { chat, analysis } = await createChat(deps, userId, { patient, withImage: true, analysisStatus: 'completed' });
  if (!analysis) throw new Error('no analysis');
  // A real-looking overlay (the factory's heatmap is a flat 8x8 square).
  const overlay = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 30 } } })
    .png()
    .toBuffer();
  const heatmap = await storeImage(deps, userId, { data: overlay, kind: 'heatmap' });
  await deps.db
    .update(analyses)
    .set({
      result: RESULT as unknown as Record<string, unknown>,
      modelVersion: RESULT.modelVersion,
      heatmapImageId: heatmap.id,
      completedAt: new Date(),
    })
    .where(eq(analyses.id, analysis.id));
  await deps.db.insert(messages).values({
    chatId: chat.id,
    role: 'assistant',
    content: REPORT_MD,
    disease: 'Pneumonia',
    imageId: heatmap.id,
    analysisId: analysis.id,
  });
  return { chat, analysis, patient };
}
