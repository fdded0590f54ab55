import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { testRadiographs } from '../../tests/analysis/support/fixtures.js';

/** The shared data set beside the repository; the bench never writes to it or to the repo. */
const DATASET_DIR = fileURLToPath(new URL('../../../shared/datasets/cxr-224/', import.meta.url));
const LABELS = ['normal', 'pneumonia', 'covid19'] as const;

export interface BenchImage {
  data: Buffer;
  width: number;
  height: number;
  megapixels: number;
}

/** Test-split radiographs of cxr-224, `perLabel` of each label, in manifest order; null without the data set. */
function datasetFiles(perLabel: number): string[] | null {
  const manifest = join(DATASET_DIR, 'manifest.csv');
  if (!existsSync(manifest)) return null;
  const [head, ...rows] = readFileSync(manifest, 'utf8').trim().split('\n');
  const cols = head!.split(',');
  const at = (row: string[], name: string) => row[cols.indexOf(name)] ?? '';
  const picked = new Map<string, string[]>(LABELS.map((l) => [l, []]));
  for (const line of rows) {
    const row = line.split(',');
    const list = picked.get(at(row, 'label'));
    if (at(row, 'split') === 'test' && list && list.length < perLabel) list.push(join(DATASET_DIR, at(row, 'path')));
  }
  return LABELS.flatMap((l) => picked.get(l)!);
}

/**
 * `n` radiographs of mixed labels, each upscaled to between 1 and 3 megapixels (in memory).
 * From the shared data set's test split when it is there, else from the committed fixtures.
 */
export async function makeImages(n: number): Promise<{ images: BenchImage[]; source: string }> {
  const fromDataset = datasetFiles(Math.ceil(n / LABELS.length));
  const files = fromDataset ?? LABELS.flatMap((l) => testRadiographs(l, Math.ceil(n / LABELS.length)));
  const source = fromDataset
    ? `${files.length} test-split radiographs of ../shared/datasets/cxr-224`
    : `../shared/datasets/cxr-224 is absent: ${files.length} committed fixtures of tests/fixtures/cxr/, each used more than once`;
  const images: BenchImage[] = [];
  for (let i = 0; i < n; i++) {
    const width = Math.round(960 + ((1650 - 960) * i) / Math.max(1, n - 1));
    const height = Math.round(width * 1.1);
    const data = await sharp(files[i % files.length]!)
      .resize(width, height, { kernel: 'lanczos3' })
      .jpeg({ quality: 92 })
      .toBuffer();
    images.push({ data, width, height, megapixels: (width * height) / 1e6 });
  }
  return { images, source };
}
