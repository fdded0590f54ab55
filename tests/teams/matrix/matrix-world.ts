import { eq } from 'drizzle-orm';
import { analyses, messages } from '../../../server/src/db/schema.js';
import { createChat, createProfile, createUser, type TTestUser } from '../../helpers/factories.js';
import { createTeam } from '../../helpers/team-factories.js';
import type { TestApp } from '../../helpers/test-app.js';
import { RESULT, REPORT_MD } from '../../export/analysed-chat.js';

/**
 * Who calls: the three roles of the team, a member of another team, nobody signed in, and a
 * team API key of the team (made by its admin) as the only credential.
 */
export const ACTORS = ['admin', 'radiologist', 'clinician', 'otherTeam', 'anon', 'teamKey'] as const;
export type TActor = (typeof ACTORS)[number];

/**
 * One team with a member of each role plus `author`, a second radiologist who made the rows the
 * actors reach for (so "a colleague's row" is never the caller's own), and a second team whose
 * admin stands for "a member of another team". Fresh for each matrix row that writes, so a row's
 * deletes, role changes or account deletion cannot change what another row sees; the rows that
 * only read share one (permission-matrix.test.ts).
 */
export interface TWorld {
  teamId: string;
  otherTeamId: string;
  users: Record<Exclude<TActor, 'anon' | 'teamKey'> | 'author', TTestUser>;
}

/** The team rows of one author: a profile and an analysed chat (X-ray, overlay, report). */
export interface TRows {
  profileId: string;
  chatId: string;
  analysisId: string;
  imageId: string;
  heatmapId: string;
}

export async function seedWorld(t: TestApp): Promise<TWorld> {
  const [admin, radiologist, clinician, author, otherTeam] = await Promise.all(
    Array.from({ length: 5 }, () => createUser(t.deps)),
  );
  if (!admin || !radiologist || !clinician || !author || !otherTeam) throw new Error('users not made');
  const team = await createTeam(t.deps, {
    [admin.user.id]: 'admin',
    [radiologist.user.id]: 'radiologist',
    [clinician.user.id]: 'clinician',
    [author.user.id]: 'radiologist',
  });
  const other = await createTeam(t.deps, { [otherTeam.user.id]: 'admin' });
  return {
    teamId: team.id,
    otherTeamId: other.id,
    users: { admin, radiologist, clinician, author, otherTeam },
  };
}

/** A completed analysis in the team, as the finalizer leaves it (result, overlay, report message). */
export async function seedRows(t: TestApp, teamId: string, authorId: string): Promise<TRows> {
  const profile = await createProfile(t.deps, authorId, { teamId });
  const { chat, analysis, image, heatmap } = await createChat(t.deps, authorId, {
    profile,
    teamId,
    withImage: true,
    withMessages: true,
    analysisStatus: 'completed',
  });
  if (!analysis || !image || !heatmap) throw new Error('analysed chat not made');
  await t.deps.db
    .update(analyses)
    .set({
      result: RESULT as unknown as Record<string, unknown>,
      modelVersion: RESULT.modelVersion,
      completedAt: new Date(),
    })
    .where(eq(analyses.id, analysis.id));
  await t.deps.db.insert(messages).values({
    chatId: chat.id,
    role: 'assistant',
    content: REPORT_MD,
    disease: 'Pneumonia',
    imageId: heatmap.id,
    analysisId: analysis.id,
  });
  return { profileId: profile.id, chatId: chat.id, analysisId: analysis.id, imageId: image.id, heatmapId: heatmap.id };
}
