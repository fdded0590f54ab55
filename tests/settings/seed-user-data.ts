import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../server/src/deps.js';
import { analyses, chats, messages, patientProfiles, storedImages } from '../../server/src/db/schema.js';
import { sha256Hex } from '../../server/src/lib/tokens.js';
import { contentKey } from '@contracts/image-store.js';

export interface TSeeded {
  profileIds: string[];
  chatIds: string[];
  imageKeys: string[];
  patientName: string;
}

/** Stores an image file and its row, as the upload path does. */
export async function storeImage(deps: AppDeps, userId: string, kind: 'upload' | 'heatmap', data = randomBytes(64)) {
  const sha = sha256Hex(data);
  const key = contentKey(sha);
  await deps.images.put(key, data, 'image/png');
  const [row] = await deps.db
    .insert(storedImages)
    .values({ userId, kind, storageKey: key, sha256: sha, mediaType: 'image/png', bytes: data.length })
    .returning({ id: storedImages.id });
  if (!row) throw new Error('image row not stored');
  return { id: row.id, key };
}

/**
 * A user's patient data as the other features will write it: two profiles, and two chats made
 * from one of them, each with an upload, an analysis with a heatmap, and messages.
 */
export async function seedUserData(deps: AppDeps, userId: string): Promise<TSeeded> {
  const patientName = `Patient ${randomBytes(3).toString('hex')}`;
  const profiles = await deps.db
    .insert(patientProfiles)
    .values([
      { userId, fullName: patientName, age: 54, customFields: { Allergies: 'penicillin' } },
      { userId, fullName: `${patientName} II`, age: 7 },
    ])
    .returning({ id: patientProfiles.id });
  const chatIds: string[] = [];
  const imageKeys: string[] = [];
  for (let i = 0; i < 2; i++) {
    const upload = await storeImage(deps, userId, 'upload');
    const heatmap = await storeImage(deps, userId, 'heatmap');
    imageKeys.push(upload.key, heatmap.key);
    const [chat] = await deps.db
      .insert(chats)
      .values({
        userId,
        profileId: profiles[0]?.id ?? null,
        title: `${patientName} - X-Ray Analysis`,
        patient: { full_name: patientName, age: '54', medical_history: 'Allergies: penicillin' },
        imageId: upload.id,
      })
      .returning({ id: chats.id });
    if (!chat) throw new Error('chat not stored');
    chatIds.push(chat.id);
    const [analysis] = await deps.db
      .insert(analyses)
      .values({
        userId,
        chatId: chat.id,
        imageId: upload.id,
        heatmapImageId: heatmap.id,
        status: 'completed',
        stage: 'done',
      })
      .returning({ id: analyses.id });
    await deps.db.insert(messages).values([
      { chatId: chat.id, role: 'user', content: `Patient ${patientName}, 54`, imageId: upload.id },
      { chatId: chat.id, role: 'assistant', content: 'Findings: none', analysisId: analysis?.id ?? null },
    ]);
  }
  return { profileIds: profiles.map((p) => p.id), chatIds, imageKeys, patientName };
}
