import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances, userIdentities, users } from '../../server/src/db/schema.js';
import { issueAdminVerificationToken } from '../../server/src/services/site/verify-admin-email.js';
import { issueDicomOwnerToken } from '../../server/src/services/dicom-node/confirm-dicom-owner.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createChat, createProfile, createUser, pngBytes, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { documentedApiRoutes, registeredApiRoutes } from '../helpers/list-api-routes.js';
import { multipart } from '../helpers/post-multipart.js';
import { freePort } from '../helpers/start-orthanc.js';
import { testPatientName } from '../helpers/test-patients.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { createTeam as createTeamWith, invitationTokenFor } from '../helpers/team-factories.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';
import { claimStudy } from '../../server/src/services/worklist/claim-study.js';
import { createTeam } from '../../server/src/services/teams/create-team.js';
import { inviteMember } from '../../server/src/services/teams/invite-member.js';
import { joinTeam } from '../../server/src/services/teams/join-team.js';
import { signReport } from '../../server/src/services/report/sign-report.js';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelRegistryDir } from '@contracts/config/base-config.js';
import { importModel } from '../../worker/src/models/import-model.js';
import { promoteModel, rollbackModel, shadowModel } from '../../server/src/services/models/change-model-status.js';
import { readRegistryState } from '../../server/src/services/models/registry-state.js';
import { xrvShapedOnnx } from '../helpers/onnx-graph.js';
import { Worker } from 'bullmq';
import { QueueName } from '@contracts/queues.js';
import { createModelImportProcessor } from '../../worker/src/jobs/process-model-import.js';

type TResponses = Record<string, { content?: Record<string, { schema?: object }> }>;
type TDoc = { paths: Record<string, Record<string, { responses: TResponses }>> };
type TCall = Omit<InjectOptions, 'url' | 'method'> & { url: string };

/** The model-import worker, started by the import route's first call. */
let importWorker: Worker | undefined;

/** The upload form: a patient for a documented 202, and a small PNG. */
async function uploadForm() {
  return multipart([
    { name: 'profile', value: JSON.stringify({ full_name: testPatientName(), age: '60' }) },
    { name: 'image', value: await pngBytes(), filename: 'x.png', type: 'image/png' },
  ]);
}

/**
 * A valid request for each route, made for a fresh account (so deleting it or logging out harms
 * no other call). A route added without an entry here fails the test below.
 */
const VALID: Record<string, (t: TestApp, u: TTestUser) => Promise<TCall>> = {
  'POST /api/auth/check-email': async (_t, u) => ({ url: '/api/auth/check-email', payload: { email: u.user.email } }),
  'POST /api/auth/login': async (_t, u) => ({
    url: '/api/auth/login',
    payload: { email: u.user.email, password: u.password },
  }),
  'POST /api/auth/signup': async () => ({
    url: '/api/auth/signup',
    payload: { name: 'New Person', email: `new-${crypto.randomUUID()}@example.org`, password: 'a long password' },
  }),
  'POST /api/auth/forgot-password': async (_t, u) => ({
    url: '/api/auth/forgot-password',
    payload: { email: u.user.email },
  }),
  'POST /api/auth/reset-password': async () => ({
    url: '/api/auth/reset-password',
    payload: { token: 'x'.repeat(43), password: 'a long password' },
  }),
  'GET /api/auth/me': async () => ({ url: '/api/auth/me' }),
  // The other /api/auth/oidc routes exist only with OIDC_ISSUER set (tests/sso/).
  'GET /api/auth/oidc/options': async () => ({ url: '/api/auth/oidc/options' }),
  // Linked sign-ins are listed and unlinked with SSO off too (a site that turned it off).
  'GET /api/auth/oidc/identities': async () => ({ url: '/api/auth/oidc/identities' }),
  'DELETE /api/auth/oidc/identities/{identityId}': async (t, u) => {
    const [row] = await t.deps.db
      .insert(userIdentities)
      .values({ userId: u.user.id, issuer: 'https://idp.example', subject: crypto.randomUUID() })
      .returning({ id: userIdentities.id });
    return { url: `/api/auth/oidc/identities/${String(row?.id)}` };
  },
  'POST /api/settings/logout': async () => ({ url: '/api/settings/logout' }),
  'PUT /api/settings/change-name': async () => ({
    url: '/api/settings/change-name',
    payload: { name: 'Renamed Person' },
  }),
  'PUT /api/settings/change-password': async (_t, u) => ({
    url: '/api/settings/change-password',
    payload: {
      current_password: u.password,
      new_password: 'another long password',
      confirm_password: 'another long password',
    },
  }),
  'POST /api/settings/clear-chats': async () => ({
    url: '/api/settings/clear-chats',
    payload: { confirm_clear: true },
  }),
  'POST /api/settings/clear-profiles': async () => ({
    url: '/api/settings/clear-profiles',
    payload: { confirm_clear: true },
  }),
  'POST /api/settings/delete-account': async (_t, u) => ({
    url: '/api/settings/delete-account',
    payload: { confirm_delete: true, password: u.password },
  }),
  'POST /api/profile/create': async (_t, u) => ({
    url: '/api/profile/create',
    payload: { user_id: u.user.id, profile: { full_name: testPatientName(), age: '50' } },
  }),
  'GET /api/profile/{userId}': async (t, u) => {
    await createProfile(t.deps, u.user.id, { fullName: testPatientName() });
    return { url: `/api/profile/${u.user.id}` };
  },
  'PUT /api/profile/{userId}/{profileId}': async (t, u) => {
    const p = await createProfile(t.deps, u.user.id, { fullName: testPatientName() });
    return {
      url: `/api/profile/${u.user.id}/${p.id}`,
      payload: { profile: { full_name: testPatientName(), age: '51' } },
    };
  },
  'DELETE /api/profile/{userId}/{profileId}': async (t, u) => {
    const p = await createProfile(t.deps, u.user.id, { fullName: testPatientName() });
    return { url: `/api/profile/${u.user.id}/${p.id}` };
  },
  'GET /api/profile/{userId}/{profileId}/timeline': async (t, u) => {
    const p = await createProfile(t.deps, u.user.id, { fullName: testPatientName() });
    return { url: `/api/profile/${u.user.id}/${p.id}/timeline` };
  },
  'GET /api/history/get-init-info': async (t, u) => {
    await createChat(t.deps, u.user.id, { withImage: { data: await pngBytes() }, withMessages: true });
    return { url: '/api/history/get-init-info' };
  },
  'PUT /api/history/edit-title': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: '/api/history/edit-title', payload: { chat_id: chat.id, title: 'Renamed chat' } };
  },
  'DELETE /api/history/delete': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: '/api/history/delete', payload: { chat_id: chat.id } };
  },
  'GET /api/images/{imageId}': async (t, u) => {
    const { image } = await createChat(t.deps, u.user.id, { withImage: { data: await pngBytes() } });
    return { url: `/api/images/${image?.id ?? ''}` };
  },
  'POST /api/chat/analyzer': async () => ({
    url: '/api/chat/analyzer?wait=0',
    ...(await uploadForm()),
  }),
  'POST /api/chat/upload': async () => ({
    url: '/api/chat/upload',
    ...(await uploadForm()),
  }),
  // No finished analysis: the documented 409.
  'POST /api/chat/chat': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: '/api/chat/chat', payload: { chat_id: chat.id, query: 'Is the heart enlarged?' } };
  },
  'GET /api/export/{file}': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: `/api/export/${chat.id}.json` };
  },
  // No finished analysis: the documented 409.
  'POST /api/feedback': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: '/api/feedback', payload: { chat_id: chat.id, finding: 'Cardiomegaly', verdict: 'agree' } };
  },
  'GET /api/feedback/{chat_id}': async (t, u) => {
    const { chat } = await createChat(t.deps, u.user.id);
    return { url: `/api/feedback/${chat.id}` };
  },
  // Teams (issue 32): the caller is a team's admin, with a second member to change or remove.
  'POST /api/teams': async () => ({ url: '/api/teams', payload: { name: `Radiology conformance ${uniqueSuffix()}` } }),
  'GET /api/teams': async (t, u) => {
    await createTeam({ ...t.deps, meta: null, userId: u.user.id, name: `Radiology list ${uniqueSuffix()}` });
    return { url: '/api/teams' };
  },
  'POST /api/teams/join': async (t, u) => {
    const other = await createUser(t.deps);
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: other.user.id,
      name: `Radiology join ${uniqueSuffix()}`,
    });
    await inviteMember({
      ...t.deps,
      meta: null,
      userId: other.user.id,
      input: { teamId: team.id, email: u.user.email, role: 'clinician' },
    });
    return { url: '/api/teams/join', payload: { token: await invitationTokenFor(t.deps, u.user.email) } };
  },
  'POST /api/teams/{teamId}/invitations': async (t, u) => {
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology invite ${uniqueSuffix()}`,
    });
    return {
      url: `/api/teams/${team.id}/invitations`,
      payload: { email: `invitee-${Date.now()}@example.org`, role: 'radiologist' },
    };
  },
  'GET /api/teams/{teamId}/members': async (t, u) => {
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology members ${uniqueSuffix()}`,
    });
    return { url: `/api/teams/${team.id}/members` };
  },
  'GET /api/teams/{teamId}/audit': async (t, u) => {
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology audit ${uniqueSuffix()}`,
    });
    return { url: `/api/teams/${team.id}/audit?limit=10` };
  },
  'PATCH /api/teams/{teamId}/members/{userId}': async (t, u) => {
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology roles ${uniqueSuffix()}`,
    });
    return { url: `/api/teams/${team.id}/members/${u.user.id}`, payload: { role: 'admin' } };
  },
  'DELETE /api/teams/{teamId}/members/{userId}': async (t, u) => {
    // The admin removes a member who joined through an invitation (the last admin may not leave: 409).
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology remove ${uniqueSuffix()}`,
    });
    const member = await createUser(t.deps);
    await inviteMember({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      input: { teamId: team.id, email: member.user.email, role: 'clinician' },
    });
    const token = await invitationTokenFor(t.deps, member.user.email);
    await joinTeam({ ...t.deps, meta: null, userId: member.user.id, email: member.user.email, token });
    return { url: `/api/teams/${team.id}/members/${member.user.id}` };
  },
  'DELETE /api/teams/{teamId}/invitations/{invitationId}': async (t, u) => {
    const team = await createTeam({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      name: `Radiology revoke ${uniqueSuffix()}`,
    });
    const { invitationId } = await inviteMember({
      ...t.deps,
      meta: null,
      userId: u.user.id,
      input: { teamId: team.id, email: `revoked-${uniqueSuffix()}@example.org`, role: 'clinician' },
    });
    return { url: `/api/teams/${team.id}/invitations/${invitationId}` };
  },
  // The team worklist (issue 32 part 3): the caller is a radiologist of a team holding one study.
  'GET /api/worklist': async (t, u) => ({ url: `/api/worklist?team=${(await teamStudy(t, u)).teamId}` }),
  'POST /api/worklist/{studyId}/claim': async (t, u) => ({
    url: `/api/worklist/${(await teamStudy(t, u)).studyId}/claim`,
  }),
  'DELETE /api/worklist/{studyId}/claim': async (t, u) => {
    const { studyId } = await teamStudy(t, u);
    await claimStudy({ ...t.deps, meta: null, userId: u.user.id, id: studyId });
    return { url: `/api/worklist/${studyId}/claim` };
  },
  'POST /api/worklist/next': async (t, u) => ({
    url: '/api/worklist/next',
    payload: { team: (await teamStudy(t, u)).teamId },
  }),
  // "Mark reviewed" is the claim holder's (issue 41): the caller claims it first. No body (it is
  // optional): the bad call then spoils the id, rather than marking the study and ending the claim.
  'POST /api/worklist/{studyId}/review': async (t, u) => {
    const { studyId } = await teamStudy(t, u);
    await claimStudy({ ...t.deps, meta: null, userId: u.user.id, id: studyId });
    return { url: `/api/worklist/${studyId}/review` };
  },
  // The radiology report (issue 41) of the caller's own analysed study: read, edit, sign, addendum.
  'GET /api/analyses/{analysisId}/report': async (t, u) => ({
    url: `/api/analyses/${await ownAnalysis(t, u)}/report`,
  }),
  'PUT /api/analyses/{analysisId}/report': async (t, u) => ({
    url: `/api/analyses/${await ownAnalysis(t, u)}/report`,
    payload: {
      sections: {
        examination: 'Chest radiograph, PA.',
        comparison: 'None.',
        findings: 'Small right pleural effusion.',
        impression: '1. Small right pleural effusion.',
      },
      // A fresh draft's revision (issue 49: every save names the revision it was read at).
      revision: 1,
    },
  }),
  'POST /api/analyses/{analysisId}/report/sign': async (t, u) => ({
    url: `/api/analyses/${await ownAnalysis(t, u)}/report/sign`,
    payload: { revision: 1 },
  }),
  'POST /api/analyses/{analysisId}/report/addenda': async (t, u) => {
    const analysisId = await ownAnalysis(t, u);
    const signed = await signReport({ ...t.deps, meta: null, userId: u.user.id, input: { analysisId, revision: 1 } });
    return {
      url: `/api/analyses/${analysisId}/report/addenda`,
      payload: { text: 'Effusion confirmed on ultrasound.', revision: signed.revision },
    };
  },
  // Site routes (issue 17) are for SITE_ADMIN_EMAILS: the caller is made a site admin of this app.
  'GET /api/site/calibration': async (t, u) => siteAdmin(t, u, { url: '/api/site/calibration' }),
  'POST /api/site/calibration/propose': async (t, u) =>
    siteAdmin(t, u, { url: '/api/site/calibration/propose', payload: PROPOSE }),
  'PUT /api/site/calibration': async (t, u) =>
    siteAdmin(t, u, { url: '/api/site/calibration', payload: { calibrationId: await proposalId(t, u) } }),
  // Nothing applied: the documented 404 (the route's bad-input call has already reverted).
  'DELETE /api/site/calibration': async (t, u) => siteAdmin(t, u, { url: '/api/site/calibration' }),
  'GET /api/site/monitoring': async (t, u) => siteAdmin(t, u, { url: '/api/site/monitoring?weeks=4' }),
  'GET /api/site/destinations': async (t, u) => siteAdmin(t, u, { url: '/api/site/destinations' }),
  // A RIS that is down: the test itself is the 200, its failure the recorded result (issue 49 item 7).
  'POST /api/site/destinations/test': async (t, u) => {
    Object.assign(t.deps.config, { REPORT_HL7_DESTINATION: { host: '127.0.0.1', port: await freePort() } });
    return siteAdmin(t, u, { url: '/api/site/destinations/test', payload: { destination: 'hl7' } });
  },
  'GET /api/site/stow-forwarding': async (t, u) => siteAdmin(t, u, { url: '/api/site/stow-forwarding' }),
  'PUT /api/site/stow-forwarding': async (t, u) =>
    siteAdmin(t, u, { url: '/api/site/stow-forwarding', payload: { email: u.user.email, forward: true } }),
  // The model registry (issue 47): an imported model in this app's registry, in the state each call needs.
  'GET /api/site/models': async (t, u) => siteAdmin(t, u, { url: '/api/site/models' }),
  // The import needs a worker to answer: the worker's own import job, in this process.
  'POST /api/site/models': async (t, u) => {
    importWorker ??= new Worker(QueueName.ModelImport, createModelImportProcessor({ config: t.deps.config }), {
      connection: t.deps.redis,
      prefix: t.deps.config.QUEUE_PREFIX,
    });
    const form = multipart([
      { name: 'contract', value: 'torchxrayvision' },
      { name: 'name', value: `conformance-import-${uniqueSuffix()}`.toLowerCase().slice(0, 48) },
      { name: 'file', value: Buffer.from(xrvShapedOnnx()), filename: 'model.onnx', type: 'application/octet-stream' },
    ]);
    return siteAdmin(t, u, { url: '/api/site/models', ...form });
  },
  'GET /api/site/models/{id}/comparison': async (t, u) =>
    siteAdmin(t, u, { url: `/api/site/models/${await registryModel(t)}/comparison` }),
  'POST /api/site/models/{id}/shadow': async (t, u) =>
    siteAdmin(t, u, { url: `/api/site/models/${await registryModel(t, u, 'promotable')}/shadow` }),
  'DELETE /api/site/models/{id}/shadow': async (t, u) => {
    const id = await registryModel(t, u, 'shadow');
    return siteAdmin(t, u, { url: `/api/site/models/${id}/shadow` });
  },
  'POST /api/site/models/{id}/promote': async (t, u) =>
    siteAdmin(t, u, {
      url: `/api/site/models/${await registryModel(t, u, 'promotable')}/promote`,
      payload: { confirm: true },
    }),
  'POST /api/site/models/rollback': async (t, u) => {
    await registryModel(t, u, 'promoted');
    return siteAdmin(t, u, { url: '/api/site/models/rollback' });
  },
  // The live model's card: any account (issue 47).
  'GET /api/model-card/live': async () => ({ url: '/api/model-card/live' }),
  'POST /api/site/sso-preview': async (t, u) =>
    siteAdmin(t, u, { url: '/api/site/sso-preview', payload: { claims: { sub: 'someone', groups: ['cxr-ed'] } } }),
  'GET /api/site/verify-admin': async (t, u) => {
    t.deps.config.SITE_ADMIN_EMAILS.push(u.user.email);
    const auth = {
      userId: u.user.id,
      name: u.user.name,
      email: u.user.email,
      sessionId: null,
      via: 'session' as const,
    };
    const token = await issueAdminVerificationToken({ ...t.deps, auth });
    return { url: `/api/site/verify-admin?token=${token}` };
  },
  // The DICOM node owner's link (issue 36, S11): this account is made the owner of a node that
  // is configured (no node listens in this app: the route only records the proof).
  'GET /api/dicom-owner/confirm': async (t, u) => {
    Object.assign(t.deps.config, { DICOM_PORT: 0, DICOM_OWNER_EMAIL: u.user.email });
    const token = await issueDicomOwnerToken({ ...t.deps, account: { userId: u.user.id, email: u.user.email } });
    return { url: `/api/dicom-owner/confirm?token=${token}` };
  },
  'GET /api/api-keys': async () => ({ url: '/api/api-keys' }),
  'POST /api/api-keys': async () => ({ url: '/api/api-keys', payload: { name: 'conformance script' } }),
  'DELETE /api/api-keys/{id}': async () => ({ url: `/api/api-keys/${crypto.randomUUID()}` }),
};

/** A team with the caller as its radiologist, holding one analysed network study. */
async function teamStudy(t: TestApp, u: TTestUser): Promise<{ teamId: string; studyId: string }> {
  const team = await createTeamWith(t.deps, { [u.user.id]: 'radiologist' });
  const [studyId] = (await seedStudies(t.deps, { userId: u.user.id, teamId: team.id }, [
    { status: 'analysed', result: resultOf(finding('effusion', 0.7, 0.3, 'positive')), createdAt: new Date() },
  ])) as [string];
  return { teamId: team.id, studyId };
}

/** An analysed study of the caller's own (a personal study: its owner may sign its report). */
async function ownAnalysis(t: TestApp, u: TTestUser): Promise<string> {
  const [instanceId] = (await seedStudies(t.deps, { userId: u.user.id }, [
    { status: 'analysed', result: resultOf(finding('effusion', 0.7, 0.3, 'positive')), createdAt: new Date() },
  ])) as [string];
  const [row] = await t.deps.db
    .select({ analysisId: dicomInstances.analysisId })
    .from(dicomInstances)
    .where(eq(dicomInstances.id, instanceId));
  return row!.analysisId!;
}

/** 40 labelled results (pneumonia present above 0.3): enough for a proposal. */
const PROPOSE = {
  source: 'csv',
  method: { kind: 'youden' },
  csv: [
    'label,status,accepted,p_pneumonia',
    ...Array.from({ length: 40 }, (_, i) => `${i % 2 ? 'normal' : 'pneumonia'},completed,true,${i % 2 ? 0.1 : 0.6}`),
  ].join('\n'),
};

/** A call of a site route; the loop below makes its caller a site administrator first. */
/**
 * An imported torchxrayvision-shaped model in the app's registry (made once), with operating
 * points and in shadow, or promoted, as the call needs.
 */
async function registryModel(t: TestApp, u?: TTestUser, need?: 'shadow' | 'promotable' | 'promoted'): Promise<string> {
  const id = 'conformance-xrv';
  const dir = path.join(modelRegistryDir(t.deps.config), id);
  if (!existsSync(dir)) {
    const file = path.join(modelRegistryDir(t.deps.config), '..', 'conformance.onnx');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, xrvShapedOnnx());
    await importModel({
      file,
      contract: 'torchxrayvision',
      name: id,
      registryDir: modelRegistryDir(t.deps.config),
      shippedDir: t.deps.config.MODEL_DIR,
      maxBytes: 1 << 20,
      importedBy: 'conformance',
    });
    const entry = JSON.parse(await readFile(path.join(dir, 'registry.json'), 'utf8')) as Record<string, unknown>;
    entry.operatingPoints = {
      measuredAt: new Date().toISOString(),
      cohortSha256: 'c'.repeat(64),
      studies: 20,
      method: 'youden',
      findings: [
        { label: 'edema', threshold: 0.5, positives: 10, negatives: 10, sensitivity: 1, specificity: 1, auroc: 1 },
      ],
    };
    await writeFile(path.join(dir, 'registry.json'), JSON.stringify(entry));
  }
  if (!u || !need) return id;
  const opts = { ...t.deps, meta: null, userId: u.user.id, modelId: id };
  const state = await readRegistryState(t.deps);
  if (need === 'shadow' && !state.shadows.includes(id)) await shadowModel(opts);
  if (need === 'promotable' && state.live === id) await rollbackModel(opts);
  // Two live models to go back to: the route's "bad" call (it has no input to spoil) rolls back once too.
  for (let live = state.live, n = state.previous.length; need === 'promoted' && n < 2; n++) {
    live = live === id ? 'shipped' : id;
    await promoteModel({ ...opts, modelId: live, confirm: true });
  }
  return id;
}

function siteAdmin(_t: TestApp, _u: TTestUser, call: TCall): TCall {
  return call;
}

async function proposalId(t: TestApp, u: TTestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/site/calibration/propose',
    payload: PROPOSE,
    headers: { authorization: `Bearer ${siteAdmin(t, u, { url: '' }) && u.token}` },
  });
  return (res.json() as { data: { id: string } }).data.id;
}

/** A request the route's schemas refuse (or, for routes without input, a malformed id). */
function badInput(path: string, valid: TCall): TCall {
  if (valid.payload && !Buffer.isBuffer(valid.payload))
    return { ...valid, payload: { unexpected: 'x'.repeat(300), email: 42, chat_id: 7 } };
  if (Buffer.isBuffer(valid.payload)) return { url: valid.url, payload: { not: 'multipart' } };
  // A one-use token (the admin confirmation link) must stay unused for the valid call.
  if (/[?&]token=/.test(valid.url)) return { url: valid.url.replace(/token=[^&]*/, `token=${'x'.repeat(300)}`) };
  return { url: path.includes('{') ? valid.url.replace(/[^/]+$/, 'not-an-id') : valid.url };
}

describe('every /api route answers what /api/docs/json documents', () => {
  let t: TestApp;
  let doc: TDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  for (const name of ['binary', 'email', 'uri']) ajv.addFormat(name, true);

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(async () => {
    await importWorker?.close();
    await t.close();
  });

  /** Checks one real response against the operation's documented responses; returns its status. */
  function conforms(route: string, res: Awaited<ReturnType<FastifyInstance['inject']>>): number {
    const [method, path] = route.split(' ') as [string, string];
    const documented = doc.paths[path]?.[method.toLowerCase()]?.responses;
    assert.ok(documented, `${route} is documented`);
    const entry = documented[String(res.statusCode)];
    assert.ok(
      entry,
      `${route} answered ${res.statusCode}, which is not documented (${Object.keys(documented).join(', ')}): ${res.body.slice(0, 200)}`,
    );
    const type = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
    const content = entry.content?.[type];
    assert.ok(
      content,
      `${route} ${res.statusCode} answered ${type}, documented: ${Object.keys(entry.content ?? {}).join(', ')}`,
    );
    if (type === 'application/json' && content.schema) {
      const validate = ajv.compile(content.schema);
      assert.ok(
        validate(res.json()),
        `${route} ${res.statusCode} body: ${ajv.errorsText(validate.errors)} in ${res.body.slice(0, 300)}`,
      );
    }
    return res.statusCode;
  }

  test('every registered route has a valid request in this test, and every documented route exists', () => {
    const routes = registeredApiRoutes(t.app);
    assert.ok(routes.length > 20, `found ${routes.length} routes`);
    assert.deepEqual(
      routes.filter((r) => !VALID[r]),
      [],
      'routes without a valid request here',
    );
    assert.deepEqual(documentedApiRoutes(doc), routes);
  });

  test('anonymous, bad and valid requests, for every route', async () => {
    const statuses: Record<string, number[]> = {};
    for (const route of registeredApiRoutes(t.app)) {
      const [method, path] = route.split(' ') as [InjectOptions['method'] & string, string];
      const user = await createUser(t.deps);
      if (route.includes(' /api/site/'))
        await t.deps.db.update(users).set({ siteAdminSince: new Date() }).where(eq(users.id, user.user.id));
      const make = VALID[route];
      assert.ok(make, route);
      const valid = await make(t, user);
      const auth = { authorization: `Bearer ${user.token}` };
      const call = (c: TCall, headers: Record<string, string>) =>
        t.app.inject({ method, ...c, headers: { ...c.headers, ...headers } });
      // A fresh valid request for the anonymous call: a public route (signup) may use it up.
      const anonymous = conforms(route, await call(await make(t, user), {}));
      const bad = conforms(route, await call(badInput(path, valid), auth));
      const ok = conforms(route, await call(valid, auth));
      statuses[route] = [anonymous, bad, ok];
      assert.ok(
        ok < 400 ||
          (ok === 409 && /chat\/chat|export|feedback/.test(route)) ||
          (ok === 400 && route.endsWith('reset-password')) ||
          (ok === 404 && (route.includes('api-keys/{id}') || route === 'DELETE /api/site/calibration')),
        `${route} valid request answered ${ok}`,
      );
    }
    // Anonymous calls to the routes that need an account are refused, with the one message.
    for (const [route, [anonymous]] of Object.entries(statuses)) {
      // The confirmation links are public: the mailed token is the proof (issue 23 N3, issue 36 S11).
      const isPublic =
        (route.includes('/api/auth/') && !route.endsWith('/me')) ||
        route.endsWith('/logout') ||
        route.endsWith('/verify-admin') ||
        route.endsWith('/dicom-owner/confirm');
      if (!isPublic) assert.equal(anonymous, 401, route);
    }
  });
});
