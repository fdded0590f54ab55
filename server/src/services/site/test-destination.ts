import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { siteSettings, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { TReport } from '@contracts/schemas/report.js';
import {
  DESTINATION_MESSAGES as M,
  TEST_PATIENT,
  type TDestinationKind,
  type TDestinationTestInput,
  type TDestinationTestResult,
  type TSiteDestinations,
} from '@contracts/schemas/site-destinations.js';
import { recordAudit } from '../audit/record-audit.js';
import { echoPeer, type TEchoOutcome } from '../dicom-node/echo-peer.js';
import { buildOru } from '../report/hl7/build-oru.js';
import { ackCodeOf, exchangeMllp, MLLP_FAILURE, MllpFailedError } from '../report/hl7/send-mllp.js';
import { splitDicomName, wholeName } from '../report/split-person-name.js';
import { destinationTestKey, getSiteDestinations } from './get-site-destinations.js';

/** A C-ECHO answers at once or not at all: no need to wait as long as a C-STORE may. */
const ECHO_TIMEOUT_MS = 10_000;
const ACCEPTED = new Set(['AA', 'CA']);
const TEST_TEXT = 'CONNECTION TEST from Chest Doctor AI (Settings, Site). Not a patient report: do not file.';

type TOutcome = { ok: boolean; detail: string };

/** The test ORU: the message a signature sends, for a patient and a report nobody could take for real. */
function testOru(config: AppDeps['config'], now: Date, testerName: string) {
  const report: TReport = {
    analysisId: '00000000-0000-4000-8000-000000000000',
    status: 'final',
    sections: { examination: TEST_TEXT, comparison: 'None.', findings: TEST_TEXT, impression: 'TEST ONLY.' },
    draftedBy: 'Chest Doctor AI',
    signedBy: testerName,
    signedAt: now.toISOString(),
    addenda: [],
    canSign: false,
    deliveries: [],
    revision: 1,
  };
  const date = now.toISOString().slice(0, 10).replace(/-/g, '');
  return buildOru({
    report,
    study: {
      patientId: { id: TEST_PATIENT.id, authority: config.REPORT_HL7_SENDING_APP, type: 'PI' },
      patientName: splitDicomName(TEST_PATIENT.name),
      accessionNumber: 'CXRAI-TEST',
      studyInstanceUid: '',
      studyDate: date,
    },
    parties: {
      sendingApp: config.REPORT_HL7_SENDING_APP,
      sendingFacility: config.REPORT_HL7_SENDING_FACILITY,
      receivingApp: config.REPORT_HL7_RECEIVING_APP,
      receivingFacility: config.REPORT_HL7_RECEIVING_FACILITY,
    },
    signer: wholeName(testerName),
    controlId: `TEST${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    now,
  });
}

async function testHl7(config: AppDeps['config'], testerName: string): Promise<TOutcome> {
  const dest = config.REPORT_HL7_DESTINATION;
  if (!dest) throw new AppError('BAD_REQUEST', M.notConfigured('REPORT_HL7_DESTINATION'));
  const message = testOru(config, new Date(), testerName);
  try {
    // The same exchange as a delivery (one absolute deadline, the reply capped and matched, issue 46).
    const ack = await exchangeMllp({ ...dest, message, deadlineMs: config.REPORT_HL7_TIMEOUT_MS });
    // The ACK's text (MSA-3) is not kept, as for a real delivery: a RIS may echo the message in it.
    const code = ackCodeOf(ack).slice(0, 2);
    return ACCEPTED.has(code) ? { ok: true, detail: M.hl7Accepted(code) } : { ok: false, detail: M.hl7Refused(code) };
  } catch (err) {
    const code = err instanceof MllpFailedError ? err.code : '';
    if (/^E[A-Z]+$/.test(code)) return { ok: false, detail: M.network(code) };
    if (code === MLLP_FAILURE.deadline) return { ok: false, detail: M.noAck };
    return { ok: false, detail: code ? M.exchangeFailed(code) : M.notAck };
  }
}

const echoWords = (o: TEchoOutcome): TOutcome => {
  if (o.kind === 'success') return { ok: true, detail: M.echoOk };
  if (o.kind === 'status') return { ok: false, detail: M.echoStatus(o.status) };
  if (o.kind === 'rejected') return { ok: false, detail: M.rejected };
  if (o.kind === 'network') return { ok: false, detail: M.network(o.code) };
  return { ok: false, detail: M.timeout };
};

async function testDicom(config: AppDeps['config']): Promise<TOutcome> {
  const peer = config.DICOM_DESTINATION;
  if (!peer) throw new AppError('BAD_REQUEST', M.notConfigured('DICOM_DESTINATION'));
  return echoWords(await echoPeer({ peer, callingAe: config.DICOM_AE_TITLE, timeoutMs: ECHO_TIMEOUT_MS }));
}

/**
 * "Send test" on Settings → Site (issue 49 item 7): an HL7 test ORU for an obviously test patient
 * over the same MLLP sender as a signed report, or a C-ECHO to the PACS from this node's AE
 * title. The result (in words, with its time and tester) is kept in site settings and audited; a
 * failed test is a result, not an error. Nothing configured: 400 and nothing kept.
 */
export async function testDestination(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TDestinationTestInput },
): Promise<TSiteDestinations> {
  const { db, config, meta, userId, input } = opts;
  const kind: TDestinationKind = input.destination;
  const [tester] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  const started = Date.now();
  const outcome =
    kind === 'hl7' ? await testHl7(config, tester?.name ?? 'Site administrator') : await testDicom(config);
  const now = new Date();
  const value: TDestinationTestResult = {
    ...outcome,
    at: now.toISOString(),
    by: tester?.name ?? null,
    ms: now.getTime() - started,
  };
  await db.transaction(async (tx) => {
    const key = destinationTestKey(kind);
    await tx
      .insert(siteSettings)
      .values({ key, value, updatedBy: userId, updatedAt: now })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedBy: userId, updatedAt: now } });
    await recordAudit({
      db: tx as unknown as typeof db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.destination.test',
        objectType: 'site_setting',
        objectId: null,
        outcome: outcome.ok ? 'success' : 'failure',
        details: { destination: kind },
      },
    });
  });
  return getSiteDestinations({ db, config });
}
