import { serveThreadJobs } from '../../lib/serve-thread-jobs.js';
import { decodeDicom } from './decode-dicom.js';
import type { TDicomPatient } from './read-dicom-patient.js';

/** What the upload path needs from a decode; the rest of TDecodedDicom stays in the thread. */
export interface TThreadDecodedDicom {
  png: Uint8Array;
  width: number;
  height: number;
  patient: TDicomPatient;
  viewPosition: 'AP' | 'PA' | null;
}

/** Entry of the DICOM decode threads (decode-dicom-pool.ts): one file in, one PNG out. */
serveThreadJobs<Uint8Array, TThreadDecodedDicom>(async (bytes) => {
  const d = await decodeDicom(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  // sharp's output owns its memory, so it can be handed over rather than copied.
  const png = new Uint8Array(d.png.buffer, d.png.byteOffset, d.png.length);
  const whole = png.byteOffset === 0 && png.byteLength === png.buffer.byteLength;
  return {
    value: { png, width: d.width, height: d.height, patient: d.patient, viewPosition: d.viewPosition },
    transfer: whole && png.buffer instanceof ArrayBuffer ? [png.buffer] : [],
  };
});
