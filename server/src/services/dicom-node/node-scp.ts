import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import dcmjs from 'dcmjs';
import { SUPPORTED_TRANSFER_SYNTAXES } from '../dicom/transfer-syntax.js';
import { callerAllowed } from './caller-allowed.js';
import { dimse, type Dataset } from './dimse-lib.js';
import { BudgetedSink, type InstanceBudget } from './instance-budget.js';
import { StoreStatus, type TLogLevel, type TNodeSettings } from './node-thread-messages.js';
import type { PduGuard } from './pdu-guard.js';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION } from './write-part10.js';

const { Scp, Dataset: DimseDataset } = dimse;
const { Status, PresentationContextResult, RejectResult, RejectSource, RejectReason, SopClass, TransferSyntax } =
  dimse.constants;
type TAssociation = Parameters<InstanceType<typeof Scp>['associationRequested']>[0];
type TStoreRequest = Parameters<InstanceType<typeof Scp>['cStoreRequest']>[0];
type TStoreResponse = Parameters<Parameters<InstanceType<typeof Scp>['cStoreRequest']>[1]>[0];

/** Preferred first: the uncompressed syntaxes, then every compressed one the decoder reads. */
const ACCEPTED_SYNTAXES = [
  TransferSyntax.ExplicitVRLittleEndian,
  TransferSyntax.ImplicitVRLittleEndian,
  ...SUPPORTED_TRANSFER_SYNTAXES.map((s) => s.uid),
];

/** What one connection's SCP needs from the node around it. */
export interface TScpContext {
  settings: TNodeSettings;
  budget: InstanceBudget;
  guard: PduGuard;
  address: string;
  ownerReady(): boolean;
  /** Whether a called AE title other than the node's own is a team's (routed by the main thread). */
  teamAeTitle(ae: string): boolean;
  /** Hands a whole instance (one copy, transferred) to the main thread; resolves to its status. */
  handOn(bytes: Uint8Array, callingAe: string, calledAe: string): Promise<number>;
  log(level: TLogLevel, fields: Record<string, unknown>, msg: string): void;
  /** The association was answered with a rejection or a release: close once it is written. */
  finish(): void;
  /** C-STOREs handed on and not answered yet (the idle timer waits for them). */
  pending: { count: number };
}

const received = new WeakMap<Dataset, { sink: BudgetedSink; transferSyntax: string }>();

/** A Part 10 file around a data set received over the network, in one unpooled buffer (it is transferred). */
function part10Of(sink: BudgetedSink, request: TStoreRequest, transferSyntax: string): Uint8Array {
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: request.getAffectedSopClassUid(),
    MediaStorageSOPInstanceUID: request.getAffectedSopInstanceUid(),
    TransferSyntaxUID: transferSyntax,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION,
  };
  const head = new dcmjs.data.DicomDict(dcmjs.data.DicomMetaDictionary.denaturalizeDataset(meta));
  head.dict = {};
  const headBytes = new Uint8Array(head.write());
  const out = new Uint8Array(headBytes.length + sink.chunks.reduce((n, c) => n + c.length, 0));
  out.set(headBytes, 0);
  let at = headBytes.length;
  for (const c of sink.chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The Storage SCP and Verification SCP for one connection (dcmjs-dimse does the DIMSE protocol;
 * it runs in the node's own thread). Associations are checked against the called AE title (the
 * node's own, or a team's: issue 32; any other is rejected as not recognised), the
 * allow-list of calling AE titles and hosts, and a proven owner account; each instance is handed
 * to the main thread, and its answer is the status receiveInstance's outcome maps to.
 */
export class NodeScp extends Scp {
  private callingAe = '';
  private calledAe = '';
  private stores = 0;
  private readonly sinks = new Set<BudgetedSink>();

  constructor(
    socket: Socket,
    private readonly ctx: TScpContext,
  ) {
    super(socket, { logDatasets: false, logCommandDatasets: false });
  }

  /** Gives back what a connection that closed mid-instance still held. */
  releaseAll() {
    for (const s of this.sinks) s.release();
    this.sinks.clear();
  }

  override associationRequested(association: TAssociation) {
    const { settings, log, address } = this.ctx;
    const called = association.getCalledAeTitle().trim();
    this.callingAe = association.getCallingAeTitle().trim();
    const reject = (result: number, reason: number, why: string, fields: Record<string, unknown>) => {
      log('warn', fields, `association refused: ${why}`);
      this.ctx.guard.answered(false);
      this.sendAssociationReject(result, RejectSource.ServiceUser, reason);
      this.ctx.finish();
    };
    this.calledAe = called;
    if (called !== settings.aeTitle && !this.ctx.teamAeTitle(called))
      return reject(RejectResult.Permanent, RejectReason.CalledAeNotRecognized, 'called AE title', {
        callingAe: this.callingAe,
        calledAe: called,
      });
    if (!callerAllowed(settings.allowedCallers, this.callingAe, address))
      return reject(RejectResult.Permanent, RejectReason.CallingAeNotRecognized, 'caller not allowed', {
        callingAe: this.callingAe,
        from: address,
      });
    if (!this.ctx.ownerReady())
      return reject(
        RejectResult.Transient,
        RejectReason.NoReasonGiven,
        'the owner account (DICOM_OWNER_EMAIL) is not confirmed yet',
        { callingAe: this.callingAe },
      );
    for (const c of association.getPresentationContexts()) {
      const context = association.getPresentationContext(c.id);
      const offered = context.getTransferSyntaxUids();
      const syntax = ACCEPTED_SYNTAXES.find((ts) => offered.includes(ts));
      if (context.getAbstractSyntaxUid() === SopClass.Verification) {
        const plain = [TransferSyntax.ExplicitVRLittleEndian, TransferSyntax.ImplicitVRLittleEndian].find((ts) =>
          offered.includes(ts),
        );
        if (plain) context.setResult(PresentationContextResult.Accept, plain);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
      } else if (syntax) {
        // Every storage class is accepted so that what is not a chest film is recorded as skipped.
        context.setResult(PresentationContextResult.Accept, syntax);
      } else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
    }
    this.ctx.guard.answered(true);
    this.sendAssociationAccept();
  }

  override associationReleaseRequested() {
    this.sendAssociationReleaseResponse();
    this.ctx.finish();
  }

  override cEchoRequest(request: Parameters<InstanceType<typeof Scp>['cEchoRequest']>[0], cb: (r: never) => void) {
    const response = dimse.responses.CEchoResponse.fromRequest(request);
    response.setStatus(Status.Success);
    cb(response as never);
  }

  override createStoreWritableStream(): Writable {
    const sink = new BudgetedSink(this.ctx.budget, this.ctx.settings.maxInstanceBytes);
    this.sinks.add(sink);
    return sink;
  }

  override createDatasetFromStoreWritableStream(
    writable: Writable,
    pc: { getAcceptedTransferSyntaxUid(): string | undefined },
    cb: (dataset: Dataset) => void,
  ) {
    // The bytes stay as received; an empty Dataset carries them to cStoreRequest.
    const transferSyntax = pc.getAcceptedTransferSyntaxUid() ?? TransferSyntax.ImplicitVRLittleEndian;
    const ds = new DimseDataset({}, transferSyntax);
    received.set(ds, { sink: writable as BudgetedSink, transferSyntax });
    cb(ds);
  }

  override cStoreRequest(request: TStoreRequest, cb: (r: TStoreResponse) => void) {
    const { log, budget, settings } = this.ctx;
    const response = dimse.responses.CStoreResponse.fromRequest(request);
    const answer = (status: number) => {
      response.setStatus(status);
      cb(response);
    };
    this.stores += 1;
    const got = received.get(request.getDataset() as Dataset);
    if (got) this.sinks.delete(got.sink);
    const refuse = (why: string, fields: Record<string, unknown> = {}) => {
      got?.sink.release();
      log('warn', { callingAe: this.callingAe, ...fields }, `instance refused: ${why}`);
      answer(StoreStatus.OutOfResources);
    };
    if (this.stores > settings.maxInstancesPerAssociation) return refuse('too many in one association');
    if (!got || got.sink.refusal === 'too-large') return refuse('larger than the limit', { bytes: got?.sink.size });
    if (got.sink.refusal === 'over-budget') return refuse('the memory budget for instances in flight is spent');
    const bytes = part10Of(got.sink, request, got.transferSyntax);
    got.sink.release();
    // The one copy is counted until the main thread has answered it; transferring it detaches `bytes` here.
    const size = bytes.length;
    budget.used += size;
    this.ctx.pending.count += 1;
    void this.ctx.handOn(bytes, this.callingAe, this.calledAe).then((status) => {
      budget.give(size);
      this.ctx.pending.count -= 1;
      answer(status);
    });
  }
}
