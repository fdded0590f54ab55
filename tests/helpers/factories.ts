import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import {
  analyses,
  chats,
  messages,
  patientProfiles,
  sessions,
  storedImages,
  users,
  type TPatientSnapshot,
} from '../../server/src/db/schema.js';
import type { AppDeps } from '../../server/src/deps.js';
import { passwordHasherFor } from '../../server/src/lib/password.js';
import { hashToken, newToken, sha256Hex } from '../../server/src/lib/tokens.js';
import { formatMedicalHistory } from '../../server/src/services/history/format-medical-history.js';
import { contentKey } from '@contracts/image-store.js';
import { uniqueSuffix } from './test-config.js';

/**
 * Test data written straight to the database (no HTTP, no sign-up flow), so any test can have
 * users, sessions, profiles, chats and images in a few milliseconds. Everything is unique per
 * call; pass overrides for what a test cares about.
 */

type TDeps = Pick<AppDeps, 'db' | 'images' | 'config'>;

export const DEFAULT_PASSWORD = 'correct horse battery';
const SESSION_MS = 7 * 24 * 3600_000;

export interface TTestUser {
  user: { id: string; name: string; email: string };
  /** A real session token (its sha256 is in sessions, expiring in 7 days): use as Bearer or cookie. */
  token: string;
  password: string;
}

// Hashing is the slow part; one hash per (config, password) is enough for any number of users.
const hashCache = new WeakMap<object, Map<string, Promise<string>>>();
function passwordHash(deps: TDeps, password: string): Promise<string> {
  let byPassword = hashCache.get(deps.config);
  if (!byPassword) hashCache.set(deps.config, (byPassword = new Map()));
  let pending = byPassword.get(password);
  if (!pending) byPassword.set(password, (pending = passwordHasherFor(deps.config).hash(password)));
  return pending;
}

export async function createUser(
  deps: TDeps,
  opts: { name?: string; email?: string; password?: string } = {},
): Promise<TTestUser> {
  const password = opts.password ?? DEFAULT_PASSWORD;
  const email = (opts.email ?? `user-${uniqueSuffix()}@example.org`).toLowerCase();
  const [user] = await deps.db
    .insert(users)
    .values({
      name: opts.name ?? `Test User ${uniqueSuffix()}`,
      email,
      passwordHash: await passwordHash(deps, password),
      // A factory account stands for one already set up: a listed address has confirmed its
      // mailbox (the e-mail round trip itself is tested in tests/hardening/site-admin-proof).
      siteAdminSince: deps.config.SITE_ADMIN_EMAILS.includes(email) ? new Date() : null,
    })
    .returning({ id: users.id, name: users.name, email: users.email });
  if (!user) throw new Error('user insert returned nothing');
  return { user, token: await createSessionToken(deps, user.id), password };
}

/** Another live session for an existing user. */
export async function createSessionToken(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  opts: { expiresAt?: Date } = {},
): Promise<string> {
  const token = newToken();
  await deps.db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: opts.expiresAt ?? new Date(Date.now() + SESSION_MS),
  });
  return token;
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export async function createProfile(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  opts: {
    fullName?: string;
    age?: number;
    customFields?: Record<string, string>;
    createdAt?: Date;
    teamId?: string | null;
  } = {},
) {
  const [row] = await deps.db
    .insert(patientProfiles)
    .values({
      userId,
      teamId: opts.teamId ?? null,
      fullName: opts.fullName ?? `Patient ${uniqueSuffix()}`,
      age: opts.age ?? 40 + randomInt(40),
      customFields: opts.customFields ?? { Symptoms: 'cough' },
      ...(opts.createdAt ? { createdAt: opts.createdAt, updatedAt: opts.createdAt } : {}),
    })
    .returning();
  if (!row) throw new Error('profile insert returned nothing');
  return row;
}

/** A small real PNG; random colour unless `seed` is given (same seed, same bytes, same key). */
export async function pngBytes(seed?: number): Promise<Buffer> {
  const n = seed ?? randomInt(0xffffff);
  const background = { r: n & 0xff, g: (n >> 8) & 0xff, b: (n >> 16) & 0xff };
  return sharp({ create: { width: 8, height: 8, channels: 3, background } })
    .png()
    .toBuffer();
}

/** Stores bytes through deps.images under their content key and adds the stored_images row. */
export async function storeImage(
  deps: TDeps,
  userId: string,
  opts: { data?: Buffer; mediaType?: string; kind?: 'upload' | 'heatmap'; teamId?: string | null } = {},
) {
  const data = opts.data ?? (await pngBytes());
  const sha256 = sha256Hex(data);
  const storageKey = contentKey(sha256);
  const mediaType = opts.mediaType ?? 'image/png';
  await deps.images.put(storageKey, data, mediaType);
  const [row] = await deps.db
    .insert(storedImages)
    .values({
      userId,
      teamId: opts.teamId ?? null,
      kind: opts.kind ?? 'upload',
      storageKey,
      sha256,
      mediaType,
      bytes: data.length,
      width: 8,
      height: 8,
    })
    .returning();
  if (!row) throw new Error('image insert returned nothing');
  return row;
}

export interface TCreateChatOptions {
  profile?: { id: string; fullName: string; age: number; customFields: Record<string, string> };
  title?: string;
  patient?: TPatientSnapshot;
  /** Adds the X-ray upload (on the chat and on the first user message) and a heatmap on the report. */
  withImage?: boolean | { data?: Buffer };
  /** true: a user message and an assistant report; a number: that many alternating messages. */
  withMessages?: boolean | number;
  /** Adds an analysis row with this status. */
  analysisStatus?: 'queued' | 'processing' | 'completed' | 'refused' | 'failed';
  createdAt?: Date;
  /** The team the chat and its rows belong to (issue 32); absent: the author's personal space. */
  teamId?: string | null;
}

/** A chat (with optional image, messages and analysis), as the analysis flow would leave it. */
export async function createChat(deps: TDeps, userId: string, opts: TCreateChatOptions = {}) {
  const patient: TPatientSnapshot = opts.patient ?? {
    full_name: opts.profile?.fullName ?? `Patient ${uniqueSuffix()}`,
    age: String(opts.profile?.age ?? 50),
    medical_history: formatMedicalHistory(opts.profile?.customFields),
  };
  const withImage = opts.withImage ?? false;
  const teamId = opts.teamId ?? null;
  const image = withImage
    ? await storeImage(deps, userId, { ...(typeof withImage === 'object' ? withImage : {}), teamId })
    : null;
  const count = opts.withMessages === true ? 2 : typeof opts.withMessages === 'number' ? opts.withMessages : 0;
  // The heatmap only exists where something points at it (the report message or the analysis).
  const heatmap =
    withImage && (count >= 2 || opts.analysisStatus)
      ? await storeImage(deps, userId, { kind: 'heatmap', teamId })
      : null;
  const createdAt = opts.createdAt ?? new Date();
  const [chat] = await deps.db
    .insert(chats)
    .values({
      userId,
      teamId,
      profileId: opts.profile?.id ?? null,
      title: opts.title ?? `${patient.full_name} - X-Ray Analysis`,
      patient,
      imageId: image?.id ?? null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  if (!chat) throw new Error('chat insert returned nothing');

  const analysis = opts.analysisStatus
    ? ((
        await deps.db
          .insert(analyses)
          .values({
            userId,
            teamId,
            chatId: chat.id,
            imageId: image?.id ?? null,
            status: opts.analysisStatus,
            stage: opts.analysisStatus,
            heatmapImageId: heatmap?.id ?? null,
          })
          .returning()
      )[0] ?? null)
    : null;

  const rows = Array.from({ length: count }, (_, i) => ({
    chatId: chat.id,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: i === 0 ? `Patient: ${patient.full_name}` : `Message ${i}`,
    disease: i === 1 ? 'Pneumonia' : null,
    imageId: i === 0 ? (image?.id ?? null) : i === 1 ? (heatmap?.id ?? null) : null,
    // Distinct, increasing timestamps: display order is (created_at, id).
    createdAt: new Date(createdAt.getTime() + i * 1000),
  }));
  const inserted = rows.length > 0 ? await deps.db.insert(messages).values(rows).returning() : [];
  return { chat, image, heatmap, analysis, messages: inserted };
}
