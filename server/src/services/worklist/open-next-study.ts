import type { AppDeps, RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { READER_ROLES } from '../data-access/find-owned.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { listWorklist } from '../dicom-node/list-worklist.js';
import { WORKLIST_MESSAGES, type TNextStudy, type TNextStudyInput } from '@contracts/schemas/worklist.js';
import { claimStudy } from './claim-study.js';

/** How many candidates one call tries: another reader may claim the first few meanwhile. */
const CANDIDATES = 10;

/**
 * "Sign and next" (issue 41): the most urgent study of the space that is analysed, unread
 * (neither reviewed nor signed) and unclaimed, the longest waiting first; in a team it is claimed for the caller (a reader:
 * a clinician is FORBIDDEN), and a study another reader claims first is passed over. Null when
 * nothing is left to read.
 */
export async function openNextStudy(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TNextStudyInput },
): Promise<TNextStudy> {
  const { db, userId, input } = opts;
  const team = input.team ?? null;
  if (team)
    await requireTeamRole({ db, userId, teamId: team, roles: READER_ROLES, forbidden: WORKLIST_MESSAGES.readersOnly });
  const { items } = await listWorklist({
    ...opts,
    input: { team, reader: 'unclaimed', reviewed: false, statuses: ['analysed', 'sent'], limit: CANDIDATES },
  });
  for (const item of items) {
    // Uploads are claimed like network studies (issue 49): only a study without a chat is passed over.
    if (!item.chatId) continue;
    if (!team) return { id: item.id, chatId: item.chatId };
    try {
      await claimStudy({ ...opts, id: item.id });
      return { id: item.id, chatId: item.chatId };
    } catch (err) {
      // Claimed by another reader between the list and the claim: the next one.
      if (!isAppError(err) || err.code !== 'CONFLICT') throw err;
    }
  }
  return null;
}
