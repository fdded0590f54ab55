import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { currentCall } from '@contracts/finding-call.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import {
  buildNotAnalysedObjects,
  buildResultObjects,
  type TSourceInstance,
} from '../../server/src/services/dicom-node/build-result-objects.js';
import { deviceUid } from '../../server/src/services/dicom-node/describe-ai-device.js';
import { CALL_TEXT } from '../../server/src/services/export/export-text.js';
import { writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import { sampleResultV2, testRadiographs } from '../analysis/support/fixtures.js';
import { dciodvfyLines, dsrdumpTree, pixelmedSrLines, readNaturalized } from '../helpers/validate-dicom.js';

type TDs = Record<string, unknown>;
type TNode = {
  ConceptNameCodeSequence?: { CodeMeaning: string; CodeValue: string }[];
  ContentSequence?: TNode[];
} & TDs;

const FILM = 320;
const SOURCE: TSourceInstance = {
  sopClassUid: '1.2.840.10008.5.1.4.1.1.1.1',
  sopInstanceUid: '1.2.826.0.1.3680043.10.1.1',
  studyInstanceUid: '1.2.826.0.1.3680043.10.1.2',
  seriesInstanceUid: '1.2.826.0.1.3680043.10.1.3',
  viewPosition: 'PA',
  tags: { PatientName: 'AIR^TEST', PatientID: 'AIR-1', StudyDate: '20261101', StudyTime: '101500', StudyID: '1' },
};

/** Model 2's sample with the CTR's two widths, and one call the numbers alone would not give. */
function result(): TStoredResult {
  const r = sampleResultV2({ image: { width: FILM, height: FILM } });
  r.anatomy = { ...r.anatomy!, ctrLines: { heart: [0.4, 0.6, 0.66, 0.6], thorax: [0.14, 0.7, 0.86, 0.7] } };
  // Above its threshold yet called negative: the SR must say what the result says, not re-derive it.
  r.findings.push({ label: 'edema', display: 'Pulmonary oedema', probability: 0.9, threshold: 0.5, call: 'negative' });
  // Flagged below 50 %: 'possible', coded under the private scheme.
  r.findings.push({ label: 'nodule', display: 'Nodule', probability: 0.3, threshold: 0.2, call: 'possible' });
  return r;
}

const meaning = (n: TNode) => n.ConceptNameCodeSequence?.[0]?.CodeMeaning;
const child = (n: TNode, m: string) => n.ContentSequence?.find((c) => meaning(c) === m);
const groupsOf = (sr: TDs) => child(sr as TNode, 'Imaging Measurements')!.ContentSequence!;

describe('the IHE AIR result objects, as dciodvfy, dsrdump, pixelmed and dcmjs read them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'air-'));
  const files = { sc: join(dir, 'sc.dcm'), sr: join(dir, 'sr.dcm'), refused: join(dir, 'refused.dcm') };
  const r = result();
  let sc: TDs;
  let sr: TDs;
  let refused: TDs;

  beforeAll(async () => {
    const film = await sharp(testRadiographs(undefined, 1)[0]!).resize(FILM, FILM).png().toBuffer();
    const built = await buildResultObjects({ source: SOURCE, image: film, result: r, heatmapLabel: 'cardiomegaly' });
    [sc, sr] = built.datasets as [TDs, TDs];
    refused = buildNotAnalysedObjects({ source: SOURCE, result: r, reason: 'This does not look like a chest X-ray.' })
      .datasets[0]!;
    writeFileSync(files.sc, writePart10(sc));
    writeFileSync(files.sr, writePart10(sr));
    writeFileSync(files.refused, writePart10(refused));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('dciodvfy: no error on the SR, the SC or the not-analysed SR; warnings only for declared private schemes', async () => {
    for (const [name, file] of Object.entries(files)) {
      const lines = await dciodvfyLines(file);
      assert.ok(
        lines.some((l) => /^(Comprehensive3DSR|SCImage)$/.test(l)),
        `${name}: dciodvfy knew the IOD`,
      );
      assert.deepEqual(
        lines.filter((l) => /^Error/.test(l)),
        [],
        name,
      );
      const declared = new Set(
        ((name === 'sc' ? sc : name === 'sr' ? sr : refused).CodingSchemeIdentificationSequence as TDs[]).map(
          (s) => s.CodingSchemeDesignator,
        ),
      );
      for (const l of lines.filter((x) => /^Warning/.test(x))) {
        const scheme = /Unrecognized defined term <(\w+)> for value 1 of attribute <Coding Scheme Designator>/.exec(l);
        if (scheme) assert.ok(declared.has(scheme[1]!), `${name}: ${scheme[1]} is declared`);
        // DICOMDIR hints, and the Device UID of the Contributing Equipment Sequence (IHE AIR), which
        // this 2022 dicom3tools does not know yet: nothing else.
        else assert.match(l, /DICOMDIR|Device UID|Standard Extended SOP Class/, `${name}: ${l}`);
      }
    }
  });

  test('dsrdump: TID 1500 at the root, one TID 1501 per shipped finding and one for the CTR', async () => {
    const { stdout, stderr } = await dsrdumpTree(files.sr);
    assert.doesNotMatch(stderr, /^E:/m);
    assert.match(stdout, /Comprehensive 3D SR Document/);
    assert.match(
      stdout.split('\n').find((l) => l.includes('Imaging Measurement Report'))!,
      /# TID 1500 \(DCMR\)/,
    );
    assert.equal(stdout.match(/# TID 1501 \(DCMR\)/g)?.length, r.findings.length + 1);
  });

  test('pixelmed finds a Comprehensive 3D SR with root TID 1500 and no error but the 2022 CID 100 gap', async () => {
    const [report, notAnalysed] = await Promise.all([pixelmedSrLines(files.sr), pixelmedSrLines(files.refused)]);
    for (const lines of [report, notAnalysed]) {
      assert.ok(lines.includes('Found Comprehensive3DSR IOD'), lines.join('\n'));
      assert.ok(
        lines.some((l) => l.startsWith('Found Root Template TID_1500')),
        lines.join('\n'),
      );
      // Its 2022 CID 100 lists no radiography procedure, so the chest radiograph (SNOMED CT) is "not found".
      const errors = lines.filter((l) => l.startsWith('Error'));
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(
        errors[0]!,
        /Procedure reported.*399208008,SCT,"Plain chest X-ray"\) not found in context group 100/,
      );
    }
    // Its TID 1501 predates the qualitative evaluation rows: the calls are the only items it does not place.
    const unplaced = report.filter((l) => l.includes('Content Item not in template'));
    assert.equal(unplaced.length, r.findings.length);
    assert.ok(
      unplaced.every((l) => l.includes('(125007,DCM,"Measurement Group")/CODE (')),
      unplaced.join('\n'),
    );
  });

  test('dcmjs (the OHIF path): template 1500, a group per shipped finding with its own tracking UID; generateToolState reads it', () => {
    for (const [file, groups] of [
      [files.sr, r.findings.length + 1],
      [files.refused, 1],
    ] as const) {
      const ds = readNaturalized(readFileSync(file));
      assert.equal((ds.ContentTemplateSequence as TDs[])[0]!.TemplateIdentifier, '1500');
      const found = groupsOf(ds).filter((g) => meaning(g) === 'Measurement Group');
      assert.equal(found.length, groups);
      const uids = found.map((g) => child(g, 'Tracking Unique Identifier')!.UID);
      assert.equal(new Set(uids).size, groups);
      const state = dcmjs.adapters.Cornerstone3D.MeasurementReport.generateToolState(ds, {}, (_id, p) => p, {
        get: () => undefined,
      });
      assert.ok(state && typeof state === 'object');
    }
  });

  test('each finding group: finding code, probability, threshold, the call as the result states it, TID 4019, the film', () => {
    const groups = groupsOf(sr);
    r.findings.forEach((f, i) => {
      const g = groups[i]!;
      const items = g.ContentSequence!;
      assert.equal(child(g, 'Tracking Identifier')!.TextValue, f.display);
      assert.ok(child(g, 'Finding'));
      const num = (m: string) => Number((child(g, m)!.MeasuredValueSequence as TDs[])[0]!.NumericValue);
      assert.equal(num('Certainty of Finding'), f.probability);
      assert.equal(num('Operating threshold'), f.threshold);
      const call = items.find((c) => c.ValueType === 'CODE' && meaning(c) !== 'Finding')!;
      const want = {
        positive: 'Positive',
        possible: 'Possible — flagged for review',
        negative: 'Negative',
        uncertain: 'Inconclusive',
      }[currentCall(f)];
      assert.equal((call.ConceptCodeSequence as TDs[])[0]!.CodeMeaning, want, f.label);
      assert.equal(child(g, 'Algorithm Name')!.TextValue, r.modelName);
      assert.equal(child(g, 'Algorithm Version')!.TextValue, r.modelVersion);
      assert.equal(child(g, 'Algorithm Name')!.RelationshipType, 'HAS CONCEPT MOD');
      const image = items.find((c) => c.ValueType === 'IMAGE')!;
      assert.equal((image.ReferencedSOPSequence as TDs[])[0]!.ReferencedSOPInstanceUID, SOURCE.sopInstanceUid);
    });
    const edema = groups[r.findings.length - 2]!;
    assert.equal(child(edema, 'Tracking Identifier')!.TextValue, 'Pulmonary oedema');
  });

  test('the CTR group: the ratio and its two widths as lines on the film, in film pixels', () => {
    const ctr = groupsOf(sr).at(-1)!;
    assert.equal(child(ctr, 'Tracking Identifier')!.TextValue, 'Cardiothoracic ratio');
    const line = (m: string) => child(ctr, m)!;
    assert.equal(line('Maximal heart width').GraphicType, 'POLYLINE');
    assert.deepEqual(line('Maximal heart width').GraphicData, [128, 192, 211.2, 192]);
    assert.deepEqual(line('Maximal inner thoracic width').GraphicData, [44.8, 224, 275.2, 224]);
    const from = line('Maximal heart width').ContentSequence![0]!;
    assert.equal(from.RelationshipType, 'SELECTED FROM');
  });

  test('the not-analysed SR says so and why, in the film study', () => {
    assert.equal(refused.StudyInstanceUID, SOURCE.studyInstanceUid);
    const comment = child(child(refused as TNode, 'Qualitative Evaluations')!, 'Comment')!;
    assert.equal(comment.TextValue, 'Not analysed: This does not look like a chest X-ray.');
  });

  test('the SC: a legend burnt in and attributes that name the heatmap finding, its call and probability', async () => {
    const comments = String(sc.ImageComments);
    // The call words are the exports' (CALL_TEXT), read from the result's call.
    const lines = comments.split('\n');
    assert.equal(lines[0], `Heatmap: Cardiomegaly — ${CALL_TEXT.positive}, probability 74.1% (threshold 55.0%)`);
    assert.ok(comments.includes(`Pleural effusion 49.8% ${CALL_TEXT.uncertain}`));
    assert.ok(comments.includes(`Pulmonary oedema 90.0% ${CALL_TEXT.negative}`), 'the call, not re-derived');
    assert.match(comments, /CTR 0\.56, projection PA/);
    assert.match(comments, /cxr-lungcrop-test test-2\.0\.0: assistive — not a diagnosis/);
    assert.ok(
      String(sc.DerivationDescription).startsWith(
        `Heatmap of Cardiomegaly (called ${CALL_TEXT.positive}, probability 0.741, threshold 0.550)`,
      ),
    );
    assert.equal(sc.SeriesDescription, 'AI heatmap: Cardiomegaly (assistive)');
    assert.ok(!('Laterality' in sc), 'no empty Laterality');
    assert.equal(sc.BodyPartExamined, 'CHEST');
    // The legend band lies below the film and holds white text.
    const rows = Number(sc.Rows);
    assert.ok(rows > FILM + 40, `band of ${rows - FILM} rows`);
    const pixels = Buffer.from((sc.PixelData as ArrayBuffer[])[0]!);
    const band = pixels.subarray(FILM * FILM * 3);
    assert.ok(
      band.some((v) => v > 200),
      'white text in the band',
    );
  });

  test('one device per model version, the same in the SR and the SC (Contributing Equipment, IHE purpose)', () => {
    const equipment = (ds: TDs) => (ds.ContributingEquipmentSequence as TDs[])[0]!;
    assert.equal(equipment(sr).DeviceUID, equipment(sc).DeviceUID);
    assert.equal(equipment(sr).DeviceUID, deviceUid(r));
    assert.match(String(equipment(sr).DeviceUID), /^2\.25\.\d{1,39}$/);
    assert.notEqual(deviceUid({ ...r, modelVersion: 'test-2.0.1' }), deviceUid(r));
    assert.deepEqual((equipment(sr).PurposeOfReferenceCodeSequence as TDs[])[0], {
      CodeValue: 'Newcode1',
      CodingSchemeDesignator: '99IHE',
      CodeMeaning: 'Processing Algorithm',
    });
    assert.equal(equipment(sr).SoftwareVersions, r.modelVersion);
    const observer = (sr.ContentSequence as TNode[]).find((c) => meaning(c) === 'Device Observer UID')!;
    assert.equal(observer.UID, deviceUid(r));
  });
});
