import { parentPort, workerData } from 'node:worker_threads';
import type { TFromNodeThread, TNodeSettings, TToNodeThread } from './node-thread-messages.js';
import { serveConnections } from './serve-connections.js';

/**
 * The DICOM node's own thread (issue 36, S1): sockets, PDUs and DIMSE run here, so no caller can
 * hold the web app's event loop. Whole instances go to the main thread (which owns the database)
 * as transferred buffers; their C-STORE status comes back.
 */
const port = parentPort;
if (!port) throw new Error('dicom-node-thread runs as a worker thread');
const settings = workerData as TNodeSettings;
const post = (m: TFromNodeThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

let ownerReady = false;
let teamAeTitles = new Set<string>();
let nextId = 0;
const answers = new Map<number, (status: number) => void>();

const node = serveConnections({
  settings,
  ownerReady: () => ownerReady,
  teamAeTitle: (ae) => teamAeTitles.has(ae.toUpperCase()),
  log: (level, fields, msg) => post({ type: 'log', level, fields, msg }),
  handOn: (bytes, callingAe, calledAe, address) =>
    new Promise<number>((resolve) => {
      const id = ++nextId;
      answers.set(id, resolve);
      post({ type: 'instance', id, bytes, callingAe, calledAe, address }, [bytes.buffer as ArrayBuffer]);
    }),
});

port.on('message', (m: TToNodeThread) => {
  if (m.type === 'owner') ownerReady = m.ready;
  else if (m.type === 'routes') teamAeTitles = new Set(m.aeTitles);
  else if (m.type === 'answer') {
    answers.get(m.id)?.(m.status);
    answers.delete(m.id);
  } else {
    node.close();
    post({ type: 'closed' });
  }
});

node.server.once('error', (err: Error) => post({ type: 'listen-failed', message: err.message }));
node.server.listen(settings.port, settings.bind, () => {
  const address = node.server.address();
  post({ type: 'listening', port: typeof address === 'object' && address ? address.port : settings.port });
});
