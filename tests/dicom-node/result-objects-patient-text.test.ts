import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  buildNotAnalysedObjects,
  buildResultObjects,
  type TSourceInstance,
} from '../../server/src/services/dicom-node/build-result-objects.js';
import { legendLines } from '../../server/src/services/dicom-node/build-heatmap-sc.js';
import { writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import { sampleResultV2, testRadiographs } from '../analysis/support/fixtures.js';
import { dciodvfyLines, pixelmedSrLines, readNaturalized } from '../helpers/validate-dicom.js';

/**
 * Patient names with markup or control characters in the SR and the secondary capture (issue
 * 39, from the scan's "not reached" list). The tags the results repeat are stored as read, and a
 * row may come from an older version or a restored backup: whatever they hold, the objects sent
 * to the PACS stay valid (dciodvfy, pixelmed), the name carries no control character and no
 * second value, markup stays plain text, and the legend burnt into the image never shows it.
 */
const FILM = 256;
const HOSTILE_NAME = '<img src=x onerror=alert(1)>^Ann\r\nLF\u001b[31mESC\u0000NUL\\SECOND^<b>Bold</b>';
const SOURCE: TSourceInstance = {
  sopClassUid: '1.2.840.10008.5.1.4.1.1.1.1',
  sopInstanceUid: '1.2.826.0.1.3680043.10.39.1',
  studyInstanceUid: '1.2.826.0.1.3680043.10.39.2',
  seriesInstanceUid: '1.2.826.0.1.3680043.10.39.3',
  viewPosition: 'PA',
  tags: {
    PatientName: HOSTILE_NAME,
    PatientID: 'PID-39',
    ReferringPhysicianName: `Dr^${'Long'.repeat(30)}\t<script>`,
    StudyDescription: 'CHEST\r\n<i>PA</i>',
    StudyDate: '20261128',
    StudyTime: '101500',
    StudyID: '39',
    AccessionNumber: 'ACC\u000739',
  },
};

describe('result objects with a hostile patient name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'air-name-'));
  const files = { sc: join(dir, 'sc.dcm'), sr: join(dir, 'sr.dcm'), refused: join(dir, 'refused.dcm') };
  const result = sampleResultV2({ image: { width: FILM, height: FILM } });
  let datasets: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const film = await sharp(testRadiographs(undefined, 1)[0]!).resize(FILM, FILM).png().toBuffer();
    const built = await buildResultObjects({ source: SOURCE, image: film, result, heatmapLabel: null });
    const refused = buildNotAnalysedObjects({ source: SOURCE, result, reason: 'Not a chest X-ray.' }).datasets[0]!;
    datasets = [...(built.datasets as Record<string, unknown>[]), refused];
    writeFileSync(files.sc, writePart10(datasets[0]!));
    writeFileSync(files.sr, writePart10(datasets[1]!));
    writeFileSync(files.refused, writePart10(refused));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('dciodvfy finds no error in the SR, the SC or the not-analysed SR', async () => {
    for (const [name, file] of Object.entries(files)) {
      const errors = (await dciodvfyLines(file)).filter((l) => /^Error/.test(l));
      assert.deepEqual(errors, [], name);
    }
  });

  test('pixelmed reads both SRs with their root template', async () => {
    for (const file of [files.sr, files.refused]) {
      const lines = await pixelmedSrLines(file);
      assert.ok(lines.includes('Found Comprehensive3DSR IOD'), lines.join('\n'));
      assert.ok(lines.some((l) => l.startsWith('Found Root Template TID_1500')));
    }
  });

  test('the name as written: no control character, one value, markup kept as text', () => {
    for (const file of Object.values(files)) {
      const ds = readNaturalized(readFileSync(file));
      const name = JSON.stringify(ds.PatientName);
      // eslint-disable-next-line no-control-regex -- control characters are what must not be there
      assert.doesNotMatch(String(personName(ds.PatientName)), /[\u0000-\u001f\u007f]/, name);
      assert.equal(personName(ds.PatientName), '<img src=x onerror=alert(1)>^Ann LF [31mESC NUL SECOND^<b>Bold</');
      assert.equal(ds.PatientID, 'PID-39');
      assert.equal(ds.AccessionNumber, 'ACC 39');
      assert.ok(String(personName(ds.ReferringPhysicianName)).length <= 64);
    }
  });

  test("the legend burnt into the secondary capture does not show the patient's name", () => {
    const lines = legendLines({ result, heatmapLabel: null, viewPosition: 'PA' }).join('\n');
    assert.doesNotMatch(lines, /Ann|onerror|<img/);
  });
});

/** The PN as written: dcmjs naturalises it as [{ Alphabetic, Ideographic, Phonetic }] ('=' groups). */
function personName(value: unknown): string {
  if (!Array.isArray(value)) return String(value ?? '');
  const groups = value[0] as { Alphabetic?: string; Ideographic?: string; Phonetic?: string } | undefined;
  return [groups?.Alphabetic, groups?.Ideographic, groups?.Phonetic].filter((g) => g !== undefined).join('=');
}
