import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, test } from 'vitest';
import {
  CODE_TABLE,
  declareSchemes,
  FINDING_CODES,
  findingCode,
  IHE_SCHEME,
  PRIVATE_SCHEME,
} from '../../server/src/services/dicom-node/dicom-codes.js';
import { PIXELMED_JAR } from '../helpers/validate-dicom.js';

const run = promisify(execFile);
const entries = Object.entries(CODE_TABLE);

/** A file of pixelmed's jar: PS3.16's context groups and compiled templates as it ships them (2022). */
async function fromJar(path: string): Promise<string> {
  return (await run('unzip', ['-p', PIXELMED_JAR, path], { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

describe('the one table of DICOM codes and their sources', () => {
  let groups: string;
  let templates: string;
  beforeAll(async () => {
    groups = await fromJar('com/pixelmed/validate/DicomContextGroupsSource.xml');
    templates = await fromJar('com/pixelmed/validate/DicomSRDescriptionsCompiled.xsl');
  });

  test('every "CID n" code is in that PS3.16 context group with that meaning', () => {
    const cids = entries.filter(([, e]) => /^CID \d+$/.test(e.source));
    assert.ok(cids.length >= 6);
    for (const [name, { code, source }] of cids) {
      const cid = source.slice(4);
      const group = new RegExp(`<definecontextgroup cid="${cid}"[^>]*>([\\s\\S]*?)</definecontextgroup>`).exec(groups);
      assert.ok(group, `${name}: ${source} exists`);
      const line = `<contextgroupcode csd="${code.CodingSchemeDesignator}" cv="${code.CodeValue}" cm="${code.CodeMeaning}"/>`;
      assert.ok(group[1]!.includes(line), `${name}: ${line} in ${source}`);
    }
  });

  test('every "TID n" code is a row of that template', () => {
    for (const [name, { code, source }] of entries.filter(([, e]) => /^TID \d+$/.test(e.source))) {
      const row = `Template ${source.slice(4)} `;
      const concept = `(${code.CodeValue},${code.CodingSchemeDesignator},"${code.CodeMeaning}")`;
      assert.ok(
        templates.split('\n').some((l) => l.includes(row) && l.includes(concept)),
        `${name}: ${concept} in ${source}`,
      );
    }
  });

  test('private codes only under the declared schemes; standard schemes are never declared', () => {
    for (const [name, { code, source }] of entries) {
      const privateScheme = code.CodingSchemeDesignator.startsWith('99');
      assert.equal(privateScheme, source === 'private' || code.CodingSchemeDesignator === IHE_SCHEME, name);
    }
    assert.deepEqual(
      declareSchemes({ a: [CODE_TABLE.finding.code, FINDING_CODES.pneumonia] }).map((s) => s.CodingSchemeDesignator),
      [],
    );
    const declared = declareSchemes([CODE_TABLE.threshold.code, { x: [CODE_TABLE.processingAlgorithm.code] }]);
    assert.deepEqual(declared.map((s) => s.CodingSchemeDesignator).sort(), [IHE_SCHEME, PRIVATE_SCHEME].sort());
  });

  test('a finding without a SNOMED CT concept keeps its name under the private scheme', () => {
    assert.deepEqual(findingCode('pneumonia', 'Pneumonia / lung opacity'), FINDING_CODES.pneumonia);
    assert.deepEqual(findingCode('abnormal', 'Abnormal (not normal)'), {
      CodeValue: 'ABNORMAL',
      CodingSchemeDesignator: PRIVATE_SCHEME,
      CodeMeaning: 'Abnormal (not normal)',
    });
  });
});
