import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TSourceInstance } from '../../server/src/services/dicom-node/result-object-base.js';
import { newUid, writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import {
  BASIC_TEXT_SR_SOP_CLASS,
  buildReportTextSr,
} from '../../server/src/services/report/dicom/build-report-text-sr.js';
import { dciodvfyLines, dsrdumpTree, pixelmedSrLines, readNaturalized } from '../helpers/validate-dicom.js';

type TNode = {
  ValueType?: string;
  TextValue?: string;
  PersonName?: string;
  ConceptNameCodeSequence?: { CodeMeaning: string; CodeValue: string }[];
  ContentSequence?: TNode[];
} & Record<string, unknown>;

const SOURCE: TSourceInstance = {
  sopClassUid: '1.2.840.10008.5.1.4.1.1.1.1',
  sopInstanceUid: '1.2.826.0.1.3680043.10.41.1',
  studyInstanceUid: '1.2.826.0.1.3680043.10.41.2',
  seriesInstanceUid: '1.2.826.0.1.3680043.10.41.3',
  viewPosition: 'PA',
  tags: { PatientName: 'REPORT^RUTH', PatientID: 'SR-41', StudyDate: '20261101', StudyID: '7', AccessionNumber: 'A41' },
};
const SECTIONS = {
  examination: 'Chest radiograph, PA, 2026-11-01; received from the DICOM network.',
  comparison: '',
  findings: 'Lungs: Mass: 90% Likely.\nPleura: Not flagged: Pneumothorax.',
  impression: '1. Mass in the right upper zone.\n2. No effusion.',
};
const signedAt = new Date('2026-11-29T02:30:00Z');
const addendumAt = new Date('2026-11-29T03:00:00Z');

const meaning = (n: TNode) => n.ConceptNameCodeSequence?.[0]?.CodeMeaning;

describe('the signed report as a DICOM Basic Text SR, as dciodvfy, dsrdump and pixelmed read it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-sr-'));
  const files = {
    signed: join(dir, 'signed.dcm'),
    amended: join(dir, 'amended.dcm'),
    // Issue 46 L2: signers whose names hold PN delimiters and control characters.
    delimiters: join(dir, 'delimiters.dcm'),
  };
  const series = newUid();
  const first = newUid();
  let signed: TNode;
  let amended: TNode;

  beforeAll(() => {
    const common = {
      source: SOURCE,
      sections: SECTIONS,
      seriesInstanceUid: series,
      organization: 'Radiology',
      now: addendumAt,
    };
    const signature = { name: 'Dr Alice Reed', at: signedAt };
    writeFileSync(
      files.signed,
      writePart10(
        buildReportTextSr({ ...common, signed: signature, addenda: [], sopInstanceUid: first, predecessor: null }),
      ),
    );
    writeFileSync(
      files.amended,
      writePart10(
        buildReportTextSr({
          ...common,
          signed: signature,
          addenda: [{ name: 'Dr Bob Hale', at: addendumAt, text: 'The mass is the known lesion.' }],
          sopInstanceUid: newUid(),
          predecessor: { seriesInstanceUid: series, sopInstanceUid: first },
        }),
      ),
    );
    writeFileSync(
      files.delimiters,
      writePart10(
        buildReportTextSr({
          ...common,
          signed: { name: 'A^B=C', at: signedAt },
          addenda: [{ name: 'Dr\x1b Bob^\x1cHale=\\X', at: addendumAt, text: 'Noted.' }],
          sopInstanceUid: newUid(),
          predecessor: null,
        }),
      ),
    );
    signed = readNaturalized(readFileSync(files.signed)) as TNode;
    amended = readNaturalized(readFileSync(files.amended)) as TNode;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('dciodvfy: a Basic Text SR without an error', async () => {
    for (const [name, file] of Object.entries(files)) {
      const lines = await dciodvfyLines(file);
      assert.ok(lines.includes('BasicTextSR'), `${name}: ${lines.join('\n')}`);
      assert.deepEqual(
        lines.filter((l) => /^Error/.test(l)),
        [],
        name,
      );
    }
  });

  test('pixelmed: TID 2000 as the root template, no error, every item in the template', async () => {
    const checked = await Promise.all(
      Object.entries(files).map(async ([n, f]) => [n, await pixelmedSrLines(f)] as const),
    );
    for (const [name, lines] of checked) {
      assert.ok(lines.includes('Found BasicTextSR IOD'), `${name}: ${lines.join('\n')}`);
      assert.ok(
        lines.some((l) => l.startsWith('Found Root Template TID_2000')),
        `${name}: ${lines.join('\n')}`,
      );
      assert.deepEqual(
        lines.filter((l) => /^Error|not in template/i.test(l)),
        [],
        `${name}: ${lines.join('\n')}`,
      );
    }
  });

  test('a signer named A^B=C: one PN component, no delimiter as data (dciodvfy: no "Too many delimiters")', async () => {
    const lines = await dciodvfyLines(files.delimiters);
    assert.deepEqual(
      lines.filter((l) => /^Error|delimiter/i.test(l)),
      [],
      lines.join('\n'),
    );
    const sr = readNaturalized(readFileSync(files.delimiters)) as TNode;
    const names = (sr.VerifyingObserverSequence as { VerifyingObserverName: { Alphabetic?: string } | string }[]).map(
      (v) =>
        typeof v.VerifyingObserverName === 'string' ? v.VerifyingObserverName : v.VerifyingObserverName.Alphabetic,
    );
    assert.deepEqual(names, ['A B C', 'Dr Bob Hale X']);
  });

  test('dsrdump reads the title, the person observer and the sections', async () => {
    const { stdout } = await dsrdumpTree(files.signed);
    assert.match(stdout, /Basic Text SR Document/);
    assert.match(stdout, /Completion Flag\s*: COMPLETE/);
    assert.match(stdout, /Verification Flag\s*: VERIFIED/);
    assert.match(stdout, /CONTAINER:\(,,"Diagnostic Imaging Report"\)=SEPARATE> {2}# TID 2000/);
    assert.match(stdout, /PNAME:\(,,"Person Observer Name"\)="Dr Alice Reed"/);
    assert.doesNotMatch(stdout, /Device Observer/, 'a person wrote it, not the device');
  });

  test('the study, the verifier at signedAt, the four sections as text, and the addendum naming its predecessor', () => {
    assert.equal(signed.SOPClassUID, BASIC_TEXT_SR_SOP_CLASS);
    assert.equal(signed.StudyInstanceUID, SOURCE.studyInstanceUid);
    assert.equal(signed.PatientID, 'SR-41');
    assert.equal(signed.AccessionNumber, 'A41');
    assert.notEqual(signed.SeriesInstanceUID, SOURCE.seriesInstanceUid, 'a series of its own');
    assert.equal(signed.SeriesDescription, 'Chest X-ray report');
    assert.equal(signed.VerificationFlag, 'VERIFIED');
    assert.equal(signed.CompletionFlag, 'COMPLETE');
    const [v] = signed.VerifyingObserverSequence as { VerifyingObserverName: unknown; VerificationDateTime: string }[];
    assert.equal(JSON.stringify(v!.VerifyingObserverName).includes('Dr Alice Reed'), true);
    assert.equal(v!.VerificationDateTime.trim(), '20261129023000+0000');
    assert.equal(signed.PredecessorDocumentsSequence, undefined);
    assert.equal(
      signed.ContributingEquipmentSequence,
      undefined,
      'no processing algorithm: the AI SR stays the device’s',
    );
    const sections = (signed.ContentSequence ?? []).filter((n) => n.ValueType === 'CONTAINER');
    // COMPARISON is empty here: no container rather than invented words.
    assert.deepEqual(sections.map(meaning), ['Current Procedure Descriptions', 'Findings', 'Impressions']);
    const impression = sections.at(-1)!.ContentSequence![0]!;
    assert.equal(impression.ValueType, 'TEXT');
    assert.equal(impression.TextValue, '1. Mass in the right upper zone.\r\n2. No effusion.');

    const pred = amended.PredecessorDocumentsSequence as {
      ReferencedSeriesSequence: { ReferencedSOPSequence: { ReferencedSOPInstanceUID: string }[] }[];
    }[];
    assert.equal(pred[0]!.ReferencedSeriesSequence[0]!.ReferencedSOPSequence[0]!.ReferencedSOPInstanceUID, first);
    assert.equal(amended.SeriesInstanceUID, signed.SeriesInstanceUID);
    assert.equal((amended.VerifyingObserverSequence as unknown[]).length, 2, 'the signer and the addendum’s signer');
    const addendum = (amended.ContentSequence ?? []).find((n) => meaning(n) === 'Addendum')!;
    assert.match(addendum.ContentSequence![0]!.TextValue!, /^The mass is the known lesion\./);
    const text = JSON.stringify(amended.ContentSequence);
    assert.ok(text.includes('Mass in the right upper zone'), 'the full text, not just the addendum');
  });
});
