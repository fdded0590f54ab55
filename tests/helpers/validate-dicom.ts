import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import dcmjs from 'dcmjs';

const run = promisify(execFile);

/** Debian's pixelmed-apps installs the library here (libpixelmed-java); PIXELMED_JAR overrides it. */
export const PIXELMED_JAR = process.env.PIXELMED_JAR ?? '/usr/share/java/pixelmed.jar';

type TRun = { stdout: string; stderr: string };
const output = (r: TRun) => `${r.stdout}${r.stderr}`;
const settle = (p: Promise<TRun>) => p.catch((e: TRun) => e);

/** dciodvfy's lines (dicom3tools); it exits non-zero on warnings too, so its text is what counts. */
export async function dciodvfyLines(file: string): Promise<string[]> {
  return output(await settle(run('dciodvfy', [file])))
    .split('\n')
    .filter(Boolean);
}

/** dsrdump's tree with template identifiers (`# TID 1500 (DCMR)`). */
export async function dsrdumpTree(file: string): Promise<TRun> {
  return run('dsrdump', ['-v', '+Pt', file]);
}

/**
 * Pixelmed's DicomSRValidator on one SR. JDK 17's XPath limits stop its large compiled
 * stylesheets, hence the three properties; it checks the template IDs the SR declares.
 */
export async function pixelmedSrLines(file: string): Promise<string[]> {
  if (!existsSync(PIXELMED_JAR))
    throw new Error(`pixelmed not found at ${PIXELMED_JAR}: apt-get install pixelmed-apps`);
  const r = await settle(
    run(
      'java',
      [
        '-Djdk.xml.xpathExprOpLimit=0',
        '-Djdk.xml.xpathExprGrpLimit=0',
        '-Djdk.xml.xpathTotalOpLimit=0',
        '-cp',
        PIXELMED_JAR,
        'com.pixelmed.validate.DicomSRValidator',
        '-checktemplateid',
        file,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    ),
  );
  return output(r).split('\n').filter(Boolean);
}

/** A Part 10 file as dcmjs's naturalized data set: what OHIF's SR code reads. */
export function readNaturalized(bytes: Buffer): Record<string, unknown> {
  const dict = dcmjs.data.DicomMessage.readFile(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
  );
  return dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict);
}
