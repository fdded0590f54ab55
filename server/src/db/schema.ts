import type { TFindingCall } from '@contracts/finding-call.js';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  primaryKey,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TTeamRole } from '@contracts/schemas/team.js';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    // Stored lower-cased; the unique index is what stops a duplicate sign-up racing another.
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    // Site administrator since (issue 23 N3): set by the operator command or by verifying a listed
    // address, never by signing up with one. Null for everyone else.
    siteAdminSince: ts('site_admin_since'),
    // When this account's owner followed the confirmation link mailed to its address as the DICOM
    // node's owner (issue 36, S11). The node sends studies only to a confirmed DICOM_OWNER_EMAIL.
    dicomOwnerConfirmedAt: ts('dicom_owner_confirmed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email)],
);

/** The account a row belongs to: deleting the account deletes the row with it. */
const ownerColumn = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * Who made a row of a shared table. Deleting the account deletes its personal rows with it; its
 * team rows stay the team's and lose their author (null: "a former member", see
 * services/settings/delete-account.ts), which the check below allows only for team rows.
 */
const authorColumn = () => uuid('user_id').references(() => users.id, { onDelete: 'cascade' });
const authorOrTeam = (table: string) =>
  check(`${table}_author_or_team`, sql`user_id is not null or team_id is not null`);

/**
 * A department that shares its patients, studies and worklist (issue 32). Rows of the shared
 * tables carry `team_id`: null means the author's personal space, exactly as before teams.
 */
export const teams = pgTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    /**
     * The name as OIDC_TEAM_MAP names it (teamSlug in contracts/schemas/team.ts), unique: two
     * teams that one slug names would let an account take another's SSO members (issue 39 S1).
     */
    slug: text('slug').notNull(),
    /** The called AE title the DICOM node routes to this team (stored upper-case); null: none. */
    aeTitle: text('ae_title'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('teams_ae_title_uq').on(t.aeTitle), uniqueIndex('teams_slug_uq').on(t.slug)],
);

/** The team a row belongs to; null for the author's personal space. */
const teamColumn = () => uuid('team_id').references(() => teams.id, { onDelete: 'cascade' });

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: ownerColumn(),
    role: text('role').$type<TTeamRole>().notNull(),
    /**
     * Who granted the membership: `manual` (team creation, an invitation) or `sso` (the groups
     * claim at an SSO login, docs/sso.md). SSO logins change and remove only `sso` rows, unless
     * OIDC_ROLE_STRICT makes the IdP the only authority.
     */
    source: text('source').$type<'manual' | 'sso'>().notNull().default('manual'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_idx').on(t.userId)],
);

/** An e-mailed invitation: the link's token is only hashed; used once, within its expiry. */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<TTeamRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('team_invitations_hash_uq').on(t.tokenHash), index('team_invitations_team_idx').on(t.teamId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: ownerColumn(),
    // sha256 of the bearer token: a database leak does not leak usable sessions.
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: ownerColumn(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_uq').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: ownerColumn(),
    teamId: teamColumn(),
    name: text('name').notNull(),
    // The first characters, kept so the user can tell keys apart; the key itself is only hashed.
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

export const patientProfiles = pgTable(
  'patient_profiles',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    fullName: text('full_name').notNull(),
    age: integer('age').notNull(),
    // Free-form clinician fields ("Allergies": "penicillin"), text keys to text values.
    customFields: jsonb('custom_fields').$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    authorOrTeam('patient_profiles'),
    index('patient_profiles_user_created_idx').on(t.userId, t.createdAt.desc(), t.id),
    index('patient_profiles_team_created_idx').on(t.teamId, t.createdAt.desc(), t.id),
  ],
);

export const storedImages = pgTable(
  'stored_images',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    kind: text('kind').$type<'upload' | 'heatmap'>().notNull(),
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    mediaType: text('media_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
  },
  (t) => [
    authorOrTeam('stored_images'),
    index('stored_images_user_idx').on(t.userId),
    index('stored_images_key_idx').on(t.storageKey),
  ],
);

export type TPatientSnapshot = { full_name: string; age: string; medical_history: string };

export const chats = pgTable(
  'chats',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    // Nullable: deleting a profile keeps its chats, which carry their own patient snapshot.
    profileId: uuid('profile_id').references(() => patientProfiles.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    patient: jsonb('patient').$type<TPatientSnapshot>().notNull(),
    imageId: uuid('image_id').references(() => storedImages.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    authorOrTeam('chats'),
    index('chats_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('chats_profile_idx').on(t.profileId),
    index('chats_team_created_idx').on(t.teamId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const analyses = pgTable(
  'analyses',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id').references(() => storedImages.id, { onDelete: 'set null' }),
    status: text('status')
      .$type<'queued' | 'processing' | 'completed' | 'refused' | 'failed'>()
      .notNull()
      .default('queued'),
    stage: text('stage').notNull().default('queued'),
    modelVersion: text('model_version'),
    /**
     * The registry's id of the model that makes this analysis (issue 47): the live model when the
     * analysis was created ('shipped' or an imported model's name), so a re-run job uses the same
     * one and a promotion changes only new analyses. Null: made before the registry.
     */
    modelId: text('model_id'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    heatmapImageId: uuid('heatmap_image_id').references(() => storedImages.id, { onDelete: 'set null' }),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    timings: jsonb('timings').$type<Record<string, number>>(),
    /**
     * What the worklist's urgency is worked out from (issue 36 S5), written with the result
     * (worklist-triage.ts triageOf) so the worklist filters and ranks in SQL. The urgency itself is
     * not stored: it depends on the site's urgent findings, which an admin may change. Null
     * `triage_assessed`: not worked out yet (a result stored before these columns, until `npm run
     * db:fill-triage` fills it in; the worklist reads it pending); false: no finding assessed
     * (refused), the study reads pending.
     */
    triageAssessed: boolean('triage_assessed'),
    /** Labels of the findings called positive or possible. */
    calledLabels: text('called_labels').array(),
    anyPositive: boolean('any_positive'),
    anyUncertain: boolean('any_uncertain'),
    /** The lead finding (the most probable called one, the summary score left out); null when none is called. */
    leadDisplay: text('lead_display'),
    leadProbability: doublePrecision('lead_probability'),
    leadCall: text('lead_call'),
    createdAt: createdAt(),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    authorOrTeam('analyses'),
    index('analyses_chat_idx').on(t.chatId),
    index('analyses_status_created_idx').on(t.status, t.createdAt),
    // The results whose triage is still to be worked out: empty once `npm run db:fill-triage` has run.
    index('analyses_triage_missing_idx')
      .on(t.id)
      .where(sql`${t.result} is not null and ${t.triageAssessed} is null`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    role: text('role').$type<'user' | 'assistant' | 'system'>().notNull(),
    content: text('content').notNull(),
    disease: text('disease'),
    imageId: uuid('image_id').references(() => storedImages.id, { onDelete: 'set null' }),
    // Set only on the report an analysis writes; unique so a re-run job cannot add a second one.
    analysisId: uuid('analysis_id').references(() => analyses.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_chat_created_idx').on(t.chatId, t.createdAt, t.id),
    uniqueIndex('messages_analysis_uq')
      .on(t.analysisId)
      .where(sql`${t.analysisId} is not null`),
  ],
);

/**
 * Append-only: a trigger refuses UPDATE and DELETE, and each row carries the hash of the one
 * before it so that tampering with the table directly is detectable (npm run audit:verify).
 * No foreign keys: entries outlive the accounts and objects they describe.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    action: text('action').notNull(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    outcome: text('outcome').$type<'success' | 'failure'>().notNull(),
    ip: text('ip'),
    requestId: text('request_id'),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** Given when the entry is made (at request time): a redelivered entry is inserted once. */
    entryId: uuid('entry_id'),
    /**
     * The team whose row or membership the entry is about (issue 32), so its admins can read the
     * team's trail; null for personal rows, the account itself and entries older than teams.
     */
    teamId: uuid('team_id'),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorUserId),
    uniqueIndex('audit_log_entry_id_idx').on(t.entryId),
    index('audit_log_team_idx').on(t.teamId, t.id),
  ],
);

/**
 * A clinician's reading of one finding of one analysis (issue 17): one row per author, analysis
 * and finding, edited in place. The model's probability, call and version are copied in so the
 * row still says what was judged after a model change, and so calibration needs no JSONB walk.
 */
export const findingFeedback = pgTable(
  'finding_feedback',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    finding: text('finding').notNull(),
    verdict: text('verdict').$type<'agree' | 'disagree'>().notNull(),
    /** What the clinician reads on the film: the model's call when agreeing, the opposite otherwise. */
    reading: text('reading').$type<'present' | 'absent'>().notNull(),
    note: text('note'),
    modelVersion: text('model_version').notNull(),
    modelProbability: doublePrecision('model_probability').notNull(),
    modelCall: text('model_call').$type<TFindingCall>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    authorOrTeam('finding_feedback'),
    uniqueIndex('finding_feedback_author_uq').on(t.analysisId, t.finding, t.userId),
    index('finding_feedback_chat_idx').on(t.chatId),
    index('finding_feedback_created_idx').on(t.createdAt),
  ],
);

/**
 * Site operating points proposed from local labelled cases. At most one is 'applied'; it only
 * takes effect while the shipped model's sha256 equals `modelSha256` (a new model ignores it).
 */
export const siteCalibrations = pgTable(
  'site_calibrations',
  {
    id: id(),
    status: text('status').$type<'proposed' | 'applied' | 'superseded' | 'reverted'>().notNull().default('proposed'),
    source: text('source').$type<'feedback' | 'csv'>().notNull(),
    method: text('method').notNull(),
    modelSha256: text('model_sha256').notNull(),
    modelVersion: text('model_version').notNull(),
    /** Per finding: site threshold, model default, case counts, sensitivity/specificity with 95 % intervals. */
    findings: jsonb('findings').$type<Record<string, unknown>[]>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    appliedAt: ts('applied_at'),
    revertedAt: ts('reverted_at'),
  },
  (t) => [
    index('site_calibrations_status_idx').on(t.status),
    uniqueIndex('site_calibrations_applied_uq')
      .on(t.status)
      .where(sql`${t.status} = 'applied'`),
  ],
);

/**
 * Site settings a site administrator chooses, one row per key (model 4: 'urgent_findings', the
 * findings whose "Likely" call makes a worklist study Urgent; issue 48: 'urgent_also_possible', a
 * boolean, their "Possible" flags too). Read by the services that use them.
 */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Which patient profile a DICOM PatientID maps to, per receiving account (issue 24): the first
 * instance of a new PatientID creates the profile, later ones reuse it.
 */
export const dicomPatients = pgTable(
  'dicom_patients',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    dicomPatientId: text('dicom_patient_id').notNull(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => patientProfiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  // One mapping per space: a personal space is its account, a team's is the team.
  (t) => [
    authorOrTeam('dicom_patients'),
    uniqueIndex('dicom_patients_user_pid_uq')
      .on(t.userId, t.dicomPatientId)
      .where(sql`${t.teamId} is null`),
    uniqueIndex('dicom_patients_team_pid_uq')
      .on(t.teamId, t.dicomPatientId)
      .where(sql`${t.teamId} is not null`),
  ],
);

export type TDicomInstanceStatus = 'received' | 'queued' | 'analysed' | 'sent' | 'failed' | 'skipped';

/**
 * Instances received from the DICOM network (C-STORE or STOW-RS). One row per SOP Instance UID
 * and account: a second copy of the same instance is answered without a second analysis.
 * `tags` keeps only the patient and study attributes the results sent back must repeat
 * (docs/dicom-network.md lists them); the film itself is stored like an upload.
 */
export const dicomInstances = pgTable(
  'dicom_instances',
  {
    id: id(),
    userId: authorColumn(),
    teamId: teamColumn(),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    sopClassUid: text('sop_class_uid'),
    studyInstanceUid: text('study_instance_uid'),
    seriesInstanceUid: text('series_instance_uid'),
    modality: text('modality'),
    bodyPart: text('body_part'),
    viewPosition: text('view_position'),
    tags: jsonb('tags').$type<Record<string, string>>().notNull().default({}),
    source: text('source').$type<'dimse' | 'stow'>().notNull(),
    callingAe: text('calling_ae'),
    profileId: uuid('profile_id').references(() => patientProfiles.id, { onDelete: 'set null' }),
    // Cascade: deleting the analysis's chat removes the network record and its tags too.
    analysisId: uuid('analysis_id').references(() => analyses.id, { onDelete: 'cascade' }),
    status: text('status').$type<TDicomInstanceStatus>().notNull().default('received'),
    /** Why it was skipped or failed (no patient data: fixed texts and network error codes). */
    reason: text('reason'),
    sendAttempts: integer('send_attempts').notNull().default(0),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    authorOrTeam('dicom_instances'),
    uniqueIndex('dicom_instances_user_sop_uq')
      .on(t.userId, t.sopInstanceUid)
      .where(sql`${t.teamId} is null`),
    uniqueIndex('dicom_instances_team_sop_uq')
      .on(t.teamId, t.sopInstanceUid)
      .where(sql`${t.teamId} is not null`),
    index('dicom_instances_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('dicom_instances_team_created_idx').on(t.teamId, t.createdAt.desc()),
    index('dicom_instances_analysis_idx').on(t.analysisId),
    // The one-space rule looks a study up by its UID across spaces (receive-instance.ts).
    index('dicom_instances_study_idx').on(t.studyInstanceUid),
    index('dicom_instances_status_idx').on(t.status),
  ],
);

/**
 * Who reads a worklist study now and who marked it reviewed (issues 32, 49): one model for both
 * kinds of study, a network instance (`instance_id`) and a film uploaded into a team in the
 * browser (`analysis_id`, the upload's analysis). `study_id` is the worklist's id of the study
 * (the one that is set), so the worklist joins on it. A row is written on the first claim or
 * review mark; no row reads as unclaimed and unreviewed. It carries no space columns: who may
 * touch it follows its study (services/data-access/study-access.ts). A claim older than the
 * timeout is free again (worklist-urgency-sql.ts activeClaimSql).
 */
export const studyClaims = pgTable(
  'study_claims',
  {
    studyId: uuid('study_id').primaryKey(),
    instanceId: uuid('instance_id').references(() => dicomInstances.id, { onDelete: 'cascade' }),
    analysisId: uuid('analysis_id').references(() => analyses.id, { onDelete: 'cascade' }),
    claimedBy: uuid('claimed_by').references(() => users.id, { onDelete: 'set null' }),
    claimedAt: ts('claimed_at'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: ts('reviewed_at'),
  },
  (t) => [
    uniqueIndex('study_claims_instance_uq').on(t.instanceId),
    uniqueIndex('study_claims_analysis_uq').on(t.analysisId),
    index('study_claims_claimed_by_idx').on(t.claimedBy),
    check('study_claims_one_study', sql`(${t.instanceId} is null) <> (${t.analysisId} is null)`),
    check('study_claims_study_id', sql`${t.studyId} = coalesce(${t.instanceId}, ${t.analysisId})`),
  ],
);

/**
 * Accounts and teams whose STOW-RS results a site administrator lets go back to
 * DICOM_DESTINATION (issue 36 S2). Results of instances the node received over DIMSE (for its
 * owner or a team routed by AE title) always go; STOW is open to any account holding an API key,
 * so its results go only for an account (its personal space) or a team (its team keys) listed
 * here. Each row names exactly one of the two.
 */
export const stowForwarding = pgTable(
  'stow_forwarding',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    /** The site administrator who turned it on (kept as null if that account is deleted). */
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('stow_forwarding_user_uq').on(t.userId),
    uniqueIndex('stow_forwarding_team_uq').on(t.teamId),
    check('stow_forwarding_one_space', sql`(${t.userId} is null) <> (${t.teamId} is null)`),
  ],
);

/**
 * An account's identities at OpenID Providers (docs/sso.md), keyed on (issuer, sub) and never on
 * the e-mail, which an IdP may let its users change.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: id(),
    userId: ownerColumn(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_uq').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * The IdP session behind an app session: back-channel logout finds sessions by the IdP's `sid`
 * or by the identity, and RP-initiated logout sends the ID token back as `id_token_hint`.
 */
export const oidcSessions = pgTable(
  'oidc_sessions',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => userIdentities.id, { onDelete: 'cascade' }),
    sid: text('sid'),
    idToken: text('id_token').notNull(),
  },
  (t) => [index('oidc_sessions_identity_idx').on(t.identityId), index('oidc_sessions_sid_idx').on(t.sid)],
);

/**
 * The radiology report of one analysis (issue 41): drafted by the finalizer from the stored
 * result, edited by a reader while a draft, then signed (immutable: corrections are addenda).
 * Who may read or sign it follows its analysis (services/data-access/report-access.ts), so it
 * carries no space columns of its own. The signer's name is kept as signed, since the report
 * that left for the hospital said it.
 */
export const reports = pgTable('reports', {
  analysisId: uuid('analysis_id')
    .primaryKey()
    .references(() => analyses.id, { onDelete: 'cascade' }),
  status: text('status').$type<'draft' | 'final' | 'amended'>().notNull().default('draft'),
  examination: text('examination').notNull(),
  comparison: text('comparison').notNull(),
  findings: text('findings').notNull(),
  impression: text('impression').notNull(),
  /** The impression as the model drafted it: what the signed one is compared with (feedback). */
  draftImpression: text('draft_impression').notNull(),
  draftedBy: text('drafted_by').notNull(),
  signedBy: uuid('signed_by').references(() => users.id, { onDelete: 'set null' }),
  signedByName: text('signed_by_name'),
  signedAt: ts('signed_at'),
  /**
   * Bumped by every save, signature and addendum (issue 49): a save names the revision it was
   * read at, so a reader whose copy is stale is refused instead of overwriting another's words.
   * Who made the latest change, and when, is what the refusal tells them.
   */
  revision: integer('revision').notNull().default(1),
  revisedBy: uuid('revised_by').references(() => users.id, { onDelete: 'set null' }),
  revisedAt: ts('revised_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A signed correction of a signed report; the report then reads 'amended'. */
export const reportAddenda = pgTable(
  'report_addenda',
  {
    id: id(),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => reports.analysisId, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    signedBy: uuid('signed_by').references(() => users.id, { onDelete: 'set null' }),
    signedByName: text('signed_by_name').notNull(),
    signedAt: ts('signed_at').notNull().defaultNow(),
  },
  (t) => [index('report_addenda_analysis_idx').on(t.analysisId, t.signedAt)],
);

/**
 * One signed report (or one addendum) on its way to one destination (issue 41): the RIS over
 * HL7 ('hl7') or the PACS as a Basic Text SR ('dicom'). The row is written in the signature's
 * transaction and the report-delivery queue carries only its id, so a RIS or PACS that is away,
 * or a restart, loses nothing; the SR's UIDs are fixed here so a retry resends the same instance
 * and an addendum's SR can name this one as its predecessor. `last_error` holds a code (an ACK
 * code, a network error, a DIMSE status), never text from the peer.
 */
export const reportDeliveries = pgTable(
  'report_deliveries',
  {
    id: id(),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => reports.analysisId, { onDelete: 'cascade' }),
    /** Null: the signature itself; else the addendum this delivery carries (with all before it). */
    addendumId: uuid('addendum_id').references(() => reportAddenda.id, { onDelete: 'cascade' }),
    destination: text('destination').$type<'hl7' | 'dicom'>().notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    seriesInstanceUid: text('series_instance_uid'),
    sopInstanceUid: text('sop_instance_uid'),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('report_deliveries_analysis_idx').on(t.analysisId, t.createdAt),
    index('report_deliveries_pending_idx').on(t.status),
  ],
);

/**
 * The model registry's record (issue 47): every import through the API and every change of a
 * model's status by a site admin — shadow on or off, promotion, rollback — with who, when, from
 * which live model to which and the shadow comparison's figures at that moment. Which model is
 * live or shadow now is the site setting 'model_registry'; this table is its history.
 */
export const modelRegistryEvents = pgTable(
  'model_registry_events',
  {
    id: id(),
    action: text('action').$type<'import' | 'shadow' | 'unshadow' | 'promote' | 'rollback'>().notNull(),
    modelId: text('model_id').notNull(),
    fromModelId: text('from_model_id'),
    toModelId: text('to_model_id'),
    /** The comparison of `modelId` with the live model when the change was made, or null. */
    comparison: jsonb('comparison').$type<Record<string, unknown>>(),
    /** The admin confirmed a promotion on fewer compared studies than MODEL_PROMOTE_MIN_STUDIES. */
    confirmed: boolean('confirmed').notNull().default(false),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('model_registry_events_created_idx').on(t.createdAt)],
);

/**
 * What a shadow model said about an analysis (issue 47): kept apart from the analysis's result,
 * so that nothing a clinician reads, the worklist, the exports or the SR can reach it; only the
 * site admin's comparison reads it.
 */
export const shadowOutputs = pgTable(
  'shadow_outputs',
  {
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    modelId: text('model_id').notNull(),
    modelVersion: text('model_version').notNull(),
    /** Product finding label → probability (null: the film was refused by the pipeline's checks). */
    probabilities: jsonb('probabilities').$type<Record<string, number>>(),
    /** The model's own operating point per finding when it ran. */
    thresholds: jsonb('thresholds').$type<Record<string, number>>().notNull(),
    inferenceMs: doublePrecision('inference_ms').notNull(),
    /** The worker's resident memory after the run, MB. */
    rssMb: doublePrecision('rss_mb').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.analysisId, t.modelId] }), index('shadow_outputs_model_idx').on(t.modelId)],
);
