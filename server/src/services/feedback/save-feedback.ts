import { isCalled, type TFindingCall } from '@contracts/finding-call.js';
import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { FEEDBACK_MESSAGES, type TFeedbackInput } from '@contracts/schemas/feedback.js';
import { auditedAccess } from '../audit/audited-access.js';
import { getOwnedChat } from '../history/get-owned-chat.js';
import { findFeedbackAnalysis } from './find-feedback-analysis.js';
import { upsertFindingFeedback } from './upsert-finding-feedback.js';

type TCall = TFindingCall;

/**
 * What the clinician reads on the film. Agreeing with a called finding (positive, or possible:
 * flagged for review) means "present"; with a negative or uncertain one, "absent" (an uncertain
 * call is not a positive one). A disagreement without an explicit reading means the opposite of that.
 */
export function readingOf(
  verdict: TFeedbackInput['verdict'],
  call: TCall,
  reading?: 'present' | 'absent',
): 'present' | 'absent' {
  const modelReads = isCalled(call) ? 'present' : 'absent';
  if (verdict === 'agree') return modelReads;
  return reading ?? (modelReads === 'present' ? 'absent' : 'present');
}

/**
 * Records (or edits) the caller's feedback on one finding of the chat's newest analysis, with the
 * model's probability, call and version at that moment. A foreign chat answers like a missing
 * one; every attempt is audited with ids only (never the note).
 */
export async function saveFeedback(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  input: TFeedbackInput;
}): Promise<void> {
  const { db, meta, userId, input } = opts;

  await auditedAccess({
    db,
    meta,
    userId,
    action: 'feedback.save',
    objectType: 'chat',
    objectId: input.chatId,
    work: async () => {
      const chat = await getOwnedChat({ db, userId, chatId: input.chatId });
      const analysis = await findFeedbackAnalysis({ db, userId, chatId: chat.id });
      if (!analysis) throw new AppError('CONFLICT', FEEDBACK_MESSAGES.noAnalysis);
      const finding = analysis.findings.find((f) => f.label === input.finding);
      if (!finding) throw new AppError('BAD_REQUEST', FEEDBACK_MESSAGES.unknownFinding);
      const values = {
        verdict: input.verdict,
        reading: readingOf(input.verdict, finding.call, input.reading),
        note: input.note ? input.note : null,
        modelVersion: analysis.modelVersion,
        modelProbability: finding.probability,
        modelCall: finding.call,
      };
      // A reading of a team's study is the team's (it outlives the reader's account), still theirs to edit.
      await upsertFindingFeedback(
        db,
        { userId, teamId: analysis.teamId, chatId: chat.id, analysisId: analysis.id, finding: finding.label },
        values,
      );
      return { finding: finding.label, verdict: input.verdict };
    },
    detailsOf: (r) => ({ finding: r.finding, verdict: r.verdict }),
  });
}
