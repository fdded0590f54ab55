import { randomUUID } from 'node:crypto';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import dcmjs from 'dcmjs';
import type { AppDeps } from '../../deps.js';
import { SUPPORTED_TRANSFER_SYNTAXES } from '../dicom/transfer-syntax.js';
import { callerAllowed, normaliseAddress } from './caller-allowed.js';
import { dimse, type Dataset } from './dimse-lib.js';
import { findDicomOwner } from './dicom-owner.js';
import { receiveInstance } from './receive-instance.js';
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

/** Collects one C-STORE's data set, keeping nothing past the size limit (the rest is drained). */
class CappedSink extends Writable {
  chunks: Buffer[] = [];
  size = 0;
  constructor(
    readonly limit: number,
    readonly request: TStoreRequest,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
    else this.chunks = [];
    done();
  }
}

const received = new WeakMap<Dataset, { sink: CappedSink; transferSyntax: string }>();

/** A Part 10 file around a data set received over the network: the upload decoder's input. */
function part10Of(sink: CappedSink, transferSyntax: string): Buffer {
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sink.request.getAffectedSopClassUid(),
    MediaStorageSOPInstanceUID: sink.request.getAffectedSopInstanceUid(),
    TransferSyntaxUID: transferSyntax,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION,
  };
  const head = new dcmjs.data.DicomDict(dcmjs.data.DicomMetaDictionary.denaturalizeDataset(meta));
  head.dict = {};
  return Buffer.concat([Buffer.from(head.write()), ...sink.chunks]);
}

class OwnerMissingError extends Error {}

/** The receiving account, looked up on first use and then kept (an account id never changes). */
function ownerResolver(deps: Pick<AppDeps, 'db' | 'config'>) {
  let ownerId: string | null = null;
  return async () => {
    ownerId ??= await findDicomOwner(deps).catch((err: Error) => {
      throw new OwnerMissingError(err.message);
    });
    return ownerId;
  };
}

export interface DicomNode {
  port: number;
  close(): Promise<void>;
}

/**
 * The Storage SCP and Verification SCP (dcmjs-dimse does the DIMSE protocol). Associations are
 * checked against the called AE title and the allow-list of calling AE titles and hosts; each
 * instance is handed to receiveInstance. Bound to DICOM_BIND (the library's own server binds
 * every interface, so this one owns the listening socket and gives each connection to an Scp).
 */
export async function startDicomNode(deps: AppDeps): Promise<DicomNode> {
  const { config, log } = deps;
  const owner = ownerResolver(deps);
  const nodeLog = log.child({ component: 'dicom-node' });

  class NodeScp extends Scp {
    private callingAe = '';
    private stores = 0;
    private readonly address: string;
    constructor(socket: Socket) {
      super(socket, { associationTimeout: 60_000, pduTimeout: 60_000, logDatasets: false, logCommandDatasets: false });
      this.address = normaliseAddress(socket.remoteAddress);
    }

    override associationRequested(association: TAssociation) {
      const called = association.getCalledAeTitle().trim();
      this.callingAe = association.getCallingAeTitle().trim();
      if (called !== config.DICOM_AE_TITLE) {
        nodeLog.warn({ callingAe: this.callingAe, calledAe: called }, 'association refused: called AE title');
        return this.sendAssociationReject(
          RejectResult.Permanent,
          RejectSource.ServiceUser,
          RejectReason.CalledAeNotRecognized,
        );
      }
      if (!callerAllowed(config.DICOM_ALLOWED_CALLERS, this.callingAe, this.address)) {
        nodeLog.warn({ callingAe: this.callingAe, from: this.address }, 'association refused: caller not allowed');
        return this.sendAssociationReject(
          RejectResult.Permanent,
          RejectSource.ServiceUser,
          RejectReason.CallingAeNotRecognized,
        );
      }
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
      this.sendAssociationAccept();
    }

    override associationReleaseRequested() {
      this.sendAssociationReleaseResponse();
    }

    override cEchoRequest(request: Parameters<InstanceType<typeof Scp>['cEchoRequest']>[0], cb: (r: never) => void) {
      const response = dimse.responses.CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      cb(response as never);
    }

    override createStoreWritableStream(_pc: unknown, request: TStoreRequest): Writable {
      return new CappedSink(config.DICOM_MAX_INSTANCE_BYTES, request);
    }

    override createDatasetFromStoreWritableStream(
      writable: Writable,
      pc: { getAcceptedTransferSyntaxUid(): string | undefined },
      cb: (dataset: Dataset) => void,
    ) {
      // The bytes stay as received; an empty Dataset carries them to cStoreRequest.
      const transferSyntax = pc.getAcceptedTransferSyntaxUid() ?? TransferSyntax.ImplicitVRLittleEndian;
      const ds = new DimseDataset({}, transferSyntax);
      received.set(ds, { sink: writable as CappedSink, transferSyntax });
      cb(ds);
    }

    override cStoreRequest(request: TStoreRequest, cb: (r: TStoreResponse) => void) {
      const response = dimse.responses.CStoreResponse.fromRequest(request);
      const answer = (status: number) => {
        response.setStatus(status);
        cb(response);
      };
      this.stores += 1;
      const got = received.get(request.getDataset() as Dataset);
      if (this.stores > config.DICOM_MAX_INSTANCES_PER_ASSOCIATION) {
        nodeLog.warn({ callingAe: this.callingAe }, 'instance refused: too many in one association');
        return answer(Status.ResourceLimitation);
      }
      if (!got || got.sink.size > got.sink.limit) {
        nodeLog.warn({ callingAe: this.callingAe, bytes: got?.sink.size }, 'instance refused: larger than the limit');
        return answer(Status.ResourceLimitation);
      }
      const bytes = part10Of(got.sink, got.transferSyntax);
      void owner()
        .then((userId) =>
          receiveInstance({
            ...deps,
            userId,
            meta: { ip: this.address, requestId: `dicom-${randomUUID()}` },
            bytes,
            source: 'dimse',
            callingAe: this.callingAe,
          }),
        )
        .then((r) =>
          answer(r.outcome === 'failed' && r.instanceId === null ? Status.ProcessingFailure : Status.Success),
        )
        .catch((err: Error) => {
          nodeLog.error({ err }, 'instance not stored');
          answer(Status.ProcessingFailure);
        });
    }
  }

  const sockets = new Set<Socket>();
  const server: NetServer = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const scp = new NodeScp(socket);
    scp.on('networkError', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.DICOM_PORT, config.DICOM_BIND, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (config.DICOM_PORT ?? 0);
  nodeLog.info({ ae: config.DICOM_AE_TITLE, bind: config.DICOM_BIND, port }, 'DICOM node listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
