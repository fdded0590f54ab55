import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { EXPORT_DISCLAIMER, EXPORT_SCHEMA_ID, type TExportReport } from '@contracts/schemas/export.js';
import { decodeDicom } from '../../server/src/services/dicom/decode-dicom.js';
import { buildFhirBundle } from '../../server/src/services/export/build-fhir.js';
import { renderDocx } from '../../server/src/services/export/render-docx.js';
import { renderPdf } from '../../server/src/services/export/render-pdf.js';
import { writeDicom } from '../../tests/helpers/write-dicom.js';

/**
 * Prints how long DICOM decoding and export rendering take (median of N runs), for the sizes a
 * hospital sends: a 2048×2048 12-bit film (uncompressed, JPEG lossless) and a one-page report.
 * Run: node --import tsx bench/export-dicom/bench.ts
 */
async function median(label: string, runs: number, fn: () => Promise<unknown>): Promise<void> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} median ${times[Math.floor(runs / 2)]?.toFixed(1)} ms (min ${times[0]?.toFixed(1)}, max ${times[runs - 1]?.toFixed(1)}, n=${runs})`,
  );
}

const side = 2048;
const pixels = Array.from({ length: side * side }, (_, i) => ((i % side) * 2 + Math.floor(i / side)) % 4096);
const raw = await writeDicom({
  width: side,
  height: side,
  pixels,
  bitsStored: 12,
  photometric: 'MONOCHROME1',
  window: { center: 2048, width: 3000 },
  modality: 'CR',
});
const lossless = await writeDicom({
  width: side,
  height: side,
  pixels,
  bitsStored: 12,
  syntax: 'jpeg-lossless',
  modality: 'DX',
});
console.log(
  `DICOM ${side}x${side} 12-bit: uncompressed ${(raw.length / 1e6).toFixed(1)} MB, JPEG lossless ${(lossless.length / 1e6).toFixed(1)} MB`,
);
await median('decode uncompressed MONOCHROME1 + window', 5, () => decodeDicom(raw));
await median('decode JPEG lossless', 5, () => decodeDicom(lossless));

const overlay = await sharp({ create: { width: 224, height: 224, channels: 3, background: { r: 180, g: 60, b: 40 } } })
  .png()
  .toBuffer();
const report: TExportReport = {
  schema: EXPORT_SCHEMA_ID,
  generatedAt: new Date().toISOString(),
  chat: { id: crypto.randomUUID(), title: 'Bench - X-Ray Analysis', createdAt: new Date().toISOString() },
  analysis: {
    id: crypto.randomUUID(),
    status: 'completed',
    createdAt: new Date().toISOString(),
    completedAt: new Date().toISOString(),
  },
  patient: { name: 'Bench Patient', age: 50, medicalHistory: ['Smoker: yes', 'Symptoms: cough'] },
  model: { name: 'cxr-bench', version: '1', cardUrl: 'http://localhost:3000/docs#model-card' },
  gate: { accepted: true, reason: null, flags: [] },
  findings: [
    { label: 'pneumonia', display: 'Pneumonia', probability: 0.8, threshold: 0.4, call: 'positive' },
    { label: 'covid19', display: 'COVID-19', probability: 0.1, threshold: 0.35, call: 'negative' },
  ],
  notAssessed: [],
  anatomy: null,
  projection: null,
  withdrawn: [],
  topFinding: { label: 'pneumonia', display: 'Pneumonia' },
  report: {
    format: 'markdown',
    text: '## Chest X-ray analysis\n\n### Impression\n\nConsistent with **Pneumonia**.\n\n- next step one\n- next step two\n',
    signed: null,
  },
  heatmap: { mediaType: 'image/png', dataBase64: overlay.toString('base64') },
  disclaimer: EXPORT_DISCLAIMER,
};
await median('render PDF', 10, () => renderPdf(report));
await median('render DOCX', 10, () => renderDocx(report));
await median('build FHIR bundle', 10, async () => JSON.stringify(buildFhirBundle(report)));
