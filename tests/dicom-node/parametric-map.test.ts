import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import {
  buildResultObjects,
  type TResultObjects,
  type TSourceInstance,
} from '../../server/src/services/dicom-node/build-result-objects.js';
import { PARAMETRIC_MAP_SOP_CLASS } from '../../server/src/services/dicom-node/build-parametric-map.js';
import { storeToPeer } from '../../server/src/services/dicom-node/store-to-peer.js';
import { writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import { sampleResultV2, testRadiographs } from '../analysis/support/fixtures.js';
import { dciodvfyLines, readNaturalized } from '../helpers/validate-dicom.js';
import { freePort, startOrthanc, type TOrthanc } from '../helpers/start-orthanc.js';

// Issue 42: a DICOM Parametric Map (the encoding IHE AIR prefers) per flagged finding's kept heat
// values, beside the SR and the secondary capture, valid for dciodvfy and accepted by Orthanc.
const FILM = 320;
const SOURCE: TSourceInstance = {
  sopClassUid: '1.2.840.10008.5.1.4.1.1.1.1',
  sopInstanceUid: '1.2.826.0.1.3680043.10.2.1',
  studyInstanceUid: '1.2.826.0.1.3680043.10.2.2',
  seriesInstanceUid: '1.2.826.0.1.3680043.10.2.3',
  viewPosition: 'PA',
  tags: { PatientName: 'PMAP^TEST', PatientID: 'PMAP-1', StudyDate: '20261101', StudyTime: '101500', StudyID: '1' },
};
const GRID = {
  width: 4,
  height: 3,
  values: Buffer.from([0, 0, 0, 0, 0, 90, 255, 0, 0, 40, 128, 0]).toString('base64'),
};

/** Model 2's sample with two flagged findings that kept heat values and one negative finding's grid. */
function result(): TStoredResult {
  const r = sampleResultV2({ image: { width: FILM, height: FILM } });
  r.findings.push({ label: 'nodule', display: 'Nodule', probability: 0.3, threshold: 0.2, call: 'possible' });
  const flagged = r.findings.filter((f) => f.call === 'positive' || f.call === 'possible').map((f) => f.label);
  const negative = r.findings.find((f) => f.call === 'negative')!.label;
  r.heatmaps = [...flagged, negative].map((label) => ({ label, width: 128, height: 128, grid: GRID }));
  return r;
}

describe('a Parametric Map per flagged finding', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmap-'));
  const r = result();
  let built: TResultObjects;
  let orthanc: TOrthanc;

  beforeAll(async () => {
    const film = await sharp(testRadiographs(undefined, 1)[0]!).resize(FILM, FILM).png().toBuffer();
    built = await buildResultObjects({ source: SOURCE, image: film, result: r, heatmapLabel: r.heatmaps[0]!.label });
    orthanc = await startOrthanc({ node: { ae: 'CXR_AI', port: await freePort() } });
  });
  afterAll(async () => {
    await orthanc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('one map per flagged finding, none for the negative one; dciodvfy finds no error', async () => {
    const flagged = r.findings.filter((f) => f.call === 'positive' || f.call === 'possible');
    assert.ok(flagged.length >= 2);
    assert.equal(built.parametricMaps.length, flagged.length);
    for (const [i, pm] of built.parametricMaps.entries()) {
      const file = join(dir, `pm-${i}.dcm`);
      writeFileSync(file, writePart10(pm));
      const lines = await dciodvfyLines(file);
      assert.ok(lines.includes('ParametricMap'), 'dciodvfy knew the IOD');
      assert.deepEqual(
        lines.filter((l) => /^Error/.test(l)),
        [],
      );
      // What a reader gets back: the film's study, the finding's name, the heat values and their mapping.
      const ds = readNaturalized(writePart10(pm)) as Record<string, unknown> & {
        SharedFunctionalGroupsSequence: { RealWorldValueMappingSequence: { RealWorldValueSlope: number }[] };
      };
      assert.equal(ds.SOPClassUID, PARAMETRIC_MAP_SOP_CLASS);
      assert.equal(ds.StudyInstanceUID, SOURCE.studyInstanceUid);
      assert.ok(
        String(ds.ContentLabel) === 'HEATMAP' && String(ds.ContentDescription).includes(flagged[i]!.display),
        String(ds.ContentDescription),
      );
      assert.equal([ds.Rows, ds.Columns].join('x'), '3x4');
      const pixels = new Uint16Array((ds.PixelData as ArrayBuffer[])[0]!);
      assert.deepEqual([...pixels], [0, 0, 0, 0, 0, 90, 255, 0, 0, 40, 128, 0]);
      assert.ok(
        Math.abs(ds.SharedFunctionalGroupsSequence.RealWorldValueMappingSequence[0]!.RealWorldValueSlope - 1 / 255) <
          1e-9,
      );
    }
  });

  test('Orthanc accepts the maps by C-STORE and files them in the film study', async () => {
    await storeToPeer({
      peer: { ae: orthanc.aet, host: '127.0.0.1', port: orthanc.dicomPort },
      callingAe: 'CXR_AI',
      datasets: built.datasets,
    });
    const found = await orthanc.rest<{ MainDicomTags: { SOPInstanceUID: string } }[]>('/tools/find', {
      method: 'POST',
      body: JSON.stringify({
        Level: 'Instance',
        Query: { StudyInstanceUID: SOURCE.studyInstanceUid, SOPClassUID: PARAMETRIC_MAP_SOP_CLASS },
        Expand: true,
      }),
    });
    assert.deepEqual(
      found.map((i) => i.MainDicomTags.SOPInstanceUID).sort(),
      built.parametricMaps.map((pm) => String(pm.SOPInstanceUID)).sort(),
    );
  });
});
