import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../../server/src/db/schema.js';
import { createApiKey } from '../../../server/src/services/api-key/create-api-key.js';
import { radiograph, uploadBody } from '../../analysis/support/fixtures.js';
import { buildDxInstance } from '../../helpers/build-dx-instance.js';
import { related } from '../../helpers/stow-body.js';
import { ANYONE, READ, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { batchStatus, rawStatus, restStatus, sseStatus, trpcStatus } from './matrix-calls.js';

/** Analyses, chat, image and heatmap files, exports, feedback, subscriptions, batching, DICOMweb. */

const CREATE = (status: number): TAnswers => [status, status, status, 404, 401];
const QUESTION = 'What is the top finding?';

/** The analyzer's form for the team: a real small radiograph, so the upload passes its checks. */
async function analyzerStatus(c: TCallCtx, url: '/api/chat/analyzer?wait=0' | '/api/chat/upload'): Promise<number> {
  const body = uploadBody(await radiograph({ label: 'normal', side: 256 }), { full_name: 'Matrix Patient', age: 50 }, [
    { name: 'team_id', value: c.w.teamId },
  ]);
  return (await rawStatus(c.t, { method: 'POST', url, headers: body.headers, payload: body.payload }, c.token))
    .statusCode;
}

/** A reply the caller asked for on the team's chat (a non-member gets the author's). */
async function replyStreamOf(c: TCallCtx): Promise<string> {
  const member = c.actor !== 'otherTeam' && c.actor !== 'anon' && c.actor !== 'teamKey';
  const token = member ? c.token : c.w.users.author.token;
  const res = await c.t.app.inject({
    method: 'POST',
    url: '/trpc/chat.ask',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ chatId: c.rows.chatId, query: QUESTION }),
  });
  return (res.json() as { result: { data: { streamId: string } } }).result.data.streamId;
}

export const studyCases: TCase[] = [
  {
    surface: 'POST /api/chat/analyzer',
    variant: 'team_id, ?wait=0',
    expect: CREATE(202),
    call: (c) => analyzerStatus(c, '/api/chat/analyzer?wait=0'),
  },
  {
    surface: 'POST /api/chat/upload',
    variant: 'team_id',
    expect: CREATE(202),
    call: (c) => analyzerStatus(c, '/api/chat/upload'),
  },
  {
    surface: 'POST /api/chat/chat',
    variant: "a follow-up question on a colleague's chat",
    expect: READ,
    call: (c) => restStatus(c.t, 'POST', '/api/chat/chat', c.token, { chat_id: c.rows.chatId, query: QUESTION }),
  },
  {
    surface: 'GET /api/images/{imageId}',
    variant: 'the X-ray',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/images/${c.rows.imageId}`, c.token),
  },
  {
    surface: 'GET /api/images/{imageId}',
    variant: 'the heatmap',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/images/${c.rows.heatmapId}`, c.token),
  },
  {
    surface: 'GET /api/export/{file}',
    variant: 'PDF',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/export/${c.rows.chatId}.pdf`, c.token),
  },
  {
    surface: 'GET /api/export/{file}',
    variant: 'FHIR',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/export/${c.rows.chatId}.fhir.json`, c.token),
  },
  {
    surface: 'query export.file',
    variant: 'JSON',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'export.file', c.token, { chatId: c.rows.chatId, format: 'json' }),
  },
  {
    surface: 'POST /api/feedback',
    variant: "the caller's own reading of a colleague's analysis",
    expect: READ,
    call: (c) =>
      restStatus(c.t, 'POST', '/api/feedback', c.token, {
        chat_id: c.rows.chatId,
        finding: 'pneumonia',
        verdict: 'agree',
      }),
  },
  {
    surface: 'GET /api/feedback/{chat_id}',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/feedback/${c.rows.chatId}`, c.token),
  },
  {
    surface: 'query feedback.list',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'feedback.list', c.token, { chatId: c.rows.chatId }),
  },
  {
    surface: 'mutation feedback.save',
    variant: "the caller's own reading",
    expect: READ,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'feedback.save', c.token, {
        chatId: c.rows.chatId,
        finding: 'pneumonia',
        verdict: 'disagree',
      }),
  },
  {
    surface: 'query analysis.forChat',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'analysis.forChat', c.token, { chatId: c.rows.chatId }),
  },
  {
    surface: 'query analysis.get',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'analysis.get', c.token, { analysisId: c.rows.analysisId }),
  },
  {
    surface: 'subscription analysis.onProgress',
    variant: 'SSE',
    expect: READ,
    call: (c) => sseStatus(c.t, 'analysis.onProgress', c.token, { analysisId: c.rows.analysisId }),
  },
  {
    surface: 'mutation chat.send',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'mutation', 'chat.send', c.token, { chatId: c.rows.chatId, query: QUESTION }),
  },
  {
    surface: 'mutation chat.ask',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'mutation', 'chat.ask', c.token, { chatId: c.rows.chatId, query: QUESTION }),
  },
  {
    surface: 'subscription chat.onReply',
    variant: "SSE, the caller's own question (another team: the author's)",
    expect: READ,
    call: async (c) => sseStatus(c.t, 'chat.onReply', c.token, { streamId: await replyStreamOf(c) }),
  },
  {
    surface: 'batch query',
    variant: 'history.get,analysis.forChat,profile.get',
    expect: READ,
    call: (c) =>
      batchStatus(
        c.t,
        'query',
        [
          { path: 'history.get', input: { chatId: c.rows.chatId } },
          { path: 'analysis.forChat', input: { chatId: c.rows.chatId } },
          { path: 'profile.get', input: { profileId: c.rows.profileId } },
        ],
        c.token,
      ),
  },
  {
    surface: 'batch mutation',
    variant: "history.editTitle,profile.update on a colleague's rows",
    expect: [200, 200, 404, 404, 401],
    call: (c) =>
      batchStatus(
        c.t,
        'mutation',
        [
          { path: 'history.editTitle', input: { chatId: c.rows.chatId, title: 'Batched' } },
          { path: 'profile.update', input: { profileId: c.rows.profileId, profile: { patientName: 'Batch', age: 2 } } },
        ],
        c.token,
      ),
  },
  {
    surface: 'POST /dicomweb/studies',
    variant: "STOW-RS with the caller's personal API key (no account: none; team key: the team key)",
    expect: [200, 200, 200, 200, 401],
    teamKey: 200,
    call: async (c) => {
      const key =
        c.actor === 'anon' || c.actor === 'teamKey'
          ? c.token
          : (await createApiKey({ db: c.t.deps.db, meta: null, userId: c.self, name: 'pacs' })).key;
      const body = related([(await buildDxInstance()).bytes]);
      return (await rawStatus(c.t, { method: 'POST', url: '/dicomweb/studies', ...body }, key)).statusCode;
    },
  },
  {
    surface: 'POST /dicomweb/studies',
    variant: 'STOW-RS with a team key (the key is the credential, whoever sends it): lands in the team',
    expect: ANYONE(200),
    teamKey: 200,
    call: async (c) => {
      const admin = c.w.users.admin.user.id;
      const made = await createApiKey({ db: c.t.deps.db, meta: null, userId: admin, teamId: c.w.teamId, name: 'pacs' });
      const dx = await buildDxInstance();
      const body = related([dx.bytes]);
      const res = await rawStatus(c.t, { method: 'POST', url: '/dicomweb/studies', ...body }, made.key);
      const [row] = await c.t.deps.db
        .select({ teamId: dicomInstances.teamId })
        .from(dicomInstances)
        .where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid));
      if (res.statusCode === 200 && row?.teamId !== c.w.teamId) throw new Error('a team key filed outside its team');
      return res.statusCode;
    },
  },
  // Only POST is STOW-RS; the other methods at the same path say so (405) to anyone.
  ...(['GET', 'PUT', 'PATCH', 'DELETE'] as const).map((method): TCase => ({
    surface: `${method} /dicomweb/studies`,
    expect: ANYONE(405),
    teamKey: 405,
    call: (c) => restStatus(c.t, method, '/dicomweb/studies', c.token),
  })),
];
