import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import type { AppDeps } from '../../deps.js';
import { startWorker } from '../../lib/create-thread-pool.js';
import type { TFromNodeThread, TNodeSettings, TToNodeThread } from './node-thread-messages.js';
import { StoreStatus } from './node-thread-messages.js';
import { receiveInstance } from './receive-instance.js';
import { storeStatusOf } from './store-status.js';
import type { TTeamRoutes } from './watch-team-ae-titles.js';

const THREAD_ENTRY = new URL('./dicom-node-thread.ts', import.meta.url);
/** The thread holds sockets and PDU headers; instance bytes live outside its heap (and inside the budget). */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };
const RESTART_MS = 1000;

export interface DicomNode {
  port: number;
  /** The proven owner account, or null while there is none: associations are refused until then. */
  setOwner(userId: string | null): void;
  /** The teams' AE titles (issue 32): an association called by one files its instances in that team. */
  setRoutes(routes: TTeamRoutes): void;
  close(): Promise<void>;
}

function settingsOf(config: AppDeps['config'], port: number): TNodeSettings {
  return {
    port,
    bind: config.DICOM_BIND,
    aeTitle: config.DICOM_AE_TITLE,
    allowedCallers: config.DICOM_ALLOWED_CALLERS,
    maxInstanceBytes: config.DICOM_MAX_INSTANCE_BYTES,
    maxInstancesPerAssociation: config.DICOM_MAX_INSTANCES_PER_ASSOCIATION,
    maxAssociations: config.DICOM_MAX_ASSOCIATIONS,
    maxAssociationsPerAddress: config.DICOM_MAX_ASSOCIATIONS_PER_ADDRESS,
    artimMs: config.DICOM_ARTIM_TIMEOUT_MS,
    idleMs: config.DICOM_IDLE_TIMEOUT_MS,
    maxBytesInFlight: config.DICOM_MAX_BYTES_IN_FLIGHT,
  };
}

/**
 * The Storage SCP and Verification SCP, run in a worker thread of its own (issue 36, S1): the
 * thread owns the listening socket on DICOM_BIND, the PDU guard, the connection caps and timers
 * and dcmjs-dimse; this side receives whole instances, hands each to receiveInstance for the
 * proven owner account (its personal space when called by DICOM_AE_TITLE, the team whose AE title
 * was called otherwise: the owner is the rows' author, the team owns them), and answers the status
 * its outcome maps to. A thread that stops is started again on the same port.
 */
export async function startDicomNode(deps: AppDeps): Promise<DicomNode> {
  const { config, log } = deps;
  const nodeLog = log.child({ component: 'dicom-node' });
  let ownerId: string | null = null;
  let routes: TTeamRoutes = new Map();
  let closing = false;
  let thread: Worker;
  let boundPort = config.DICOM_PORT ?? 0;

  const send = (m: TToNodeThread) => thread.postMessage(m);
  const store = async (m: Extract<TFromNodeThread, { type: 'instance' }>) => {
    // The owner may have stopped being proven since the association was accepted.
    if (!ownerId) return StoreStatus.OutOfResources;
    const teamId = m.calledAe === config.DICOM_AE_TITLE ? null : (routes.get(m.calledAe.toUpperCase()) ?? undefined);
    if (teamId === undefined) {
      // The team's AE title was changed or removed after the association was accepted.
      nodeLog.warn({ calledAe: m.calledAe }, "instance refused: the called AE title is no longer a team's");
      return StoreStatus.CannotUnderstand;
    }
    try {
      const r = await receiveInstance({
        ...deps,
        userId: ownerId,
        teamId,
        meta: { ip: m.address, requestId: `dicom-${randomUUID()}` },
        bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
        source: 'dimse',
        callingAe: m.callingAe,
      });
      return storeStatusOf(r);
    } catch (err) {
      nodeLog.error({ err }, 'instance not stored');
      return StoreStatus.OutOfResources;
    }
  };

  const start = (port: number) =>
    new Promise<number>((resolve, reject) => {
      thread = startWorker(THREAD_ENTRY, THREAD_LIMITS, settingsOf(config, port));
      thread.on('message', (m: TFromNodeThread) => {
        if (m.type === 'listening') {
          boundPort = m.port;
          send({ type: 'owner', ready: ownerId !== null });
          send({ type: 'routes', aeTitles: [...routes.keys()] });
          resolve(m.port);
        } else if (m.type === 'listen-failed') reject(new Error(`DICOM node could not listen: ${m.message}`));
        else if (m.type === 'log') nodeLog[m.level](m.fields, m.msg);
        else if (m.type === 'instance') void store(m).then((status) => send({ type: 'answer', id: m.id, status }));
      });
      thread.on('error', (err) => nodeLog.error({ err }, 'DICOM node thread failed'));
      thread.on('exit', (code) => {
        reject(new Error(`DICOM node thread stopped (${code})`));
        if (closing) return;
        nodeLog.error({ code }, 'DICOM node thread stopped; starting it again');
        setTimeout(
          () => void start(boundPort).catch((err: Error) => nodeLog.error({ err }, 'DICOM node restart failed')),
          RESTART_MS,
        ).unref();
      });
    });

  const port = await start(boundPort);
  nodeLog.info({ ae: config.DICOM_AE_TITLE, bind: config.DICOM_BIND, port }, 'DICOM node listening');
  return {
    port,
    setOwner: (userId) => {
      ownerId = userId;
      send({ type: 'owner', ready: userId !== null });
    },
    setRoutes: (next) => {
      routes = next;
      send({ type: 'routes', aeTitles: [...next.keys()] });
    },
    close: async () => {
      closing = true;
      await thread.terminate();
    },
  };
}
