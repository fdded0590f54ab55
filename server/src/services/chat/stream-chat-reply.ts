import { and, desc, eq } from 'drizzle-orm';
import { analyses, chats, messages } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { CHAT_MESSAGES, type TReplyChunk } from '@contracts/schemas/chat.js';
import { auditOutcomeOf } from '../audit/audit-outcome.js';
import { patientOf } from '../history/chat-view.js';
import { getOwnedChat } from '../history/get-owned-chat.js';
import { findReadableReport } from '../report/find-readable-report.js';
import { loadReportFacts } from '../report/load-report-facts.js';
import { compareWithPrior } from '../timeline/compare-with-prior.js';
import { metricsOfResult } from '../models/read-model-facts.js';
import type { Responder, TResponderContext } from './responders/responder.js';
import { selectResponder } from './responders/select-responder.js';
import { rowAccess } from '../data-access/find-owned.js';

/** How many stored messages ground a reply (the newest ones, the report always included). */
const HISTORY_LIMIT = 50;

type TChatDeps = Pick<AppDeps, 'db' | 'config' | 'log'>;
/** Who asks, and optionally which responder answers (tests) and a signal that stops it. */
type TReplyOpts = TChatDeps & { meta: RequestMeta | null; userId: string; responder?: Responder; signal?: AbortSignal };

/**
 * Everything a reply may use, for a chat of userId's whose analysis completed. A foreign or
 * missing chat is NOT_FOUND ('Chat not found'); one without a finished analysis is refused.
 */
export async function loadChatContext(
  opts: TChatDeps & { userId: string; chatId: string; query: string },
): Promise<TResponderContext & { chatId: string; teamId: string | null }> {
  const { db, config, userId, query } = opts;
  const chat = await getOwnedChat({ db, userId, chatId: opts.chatId });
  const [analysis] = await db
    .select({
      id: analyses.id,
      status: analyses.status,
      result: analyses.result,
      createdAt: analyses.createdAt,
      modelId: analyses.modelId,
    })
    .from(analyses)
    .where(eq(analyses.chatId, chat.id))
    .orderBy(desc(analyses.createdAt))
    .limit(1);
  const parsed = analysis?.status === 'completed' ? ZStoredResult.safeParse(analysis.result) : null;
  if (!parsed?.success) throw new AppError('CONFLICT', CHAT_MESSAGES.notReady);
  const rows = await db
    .select({ role: messages.role, content: messages.content })
    .from(messages)
    .where(eq(messages.chatId, chat.id))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_LIMIT);
  // The measured figures of the model that made this result, never another's (issue 47).
  const { metrics, source: metricsSource } = metricsOfResult(config, analysis!.modelId, parsed.data);
  // The patient's previous analysis, for "what changed since last time?": stored results only.
  const comparison = await compareWithPrior({
    db,
    config,
    userId,
    profileId: chat.profileId,
    analysisId: analysis!.id,
    createdAt: analysis!.createdAt,
    result: parsed.data,
  });
  // What the report panel's draft is written from, for "draft the report" (the same words as the panel).
  const reportFacts = await loadReportFacts({ db, config, analysisId: analysis!.id });
  // The report as the panel stores it: signed or edited, the chat quotes it instead of the AI's draft.
  const report = await findReadableReport({ db, userId, analysisId: analysis!.id });
  // The prior's report too: once signed, "what changed?" quotes both signed impressions first.
  const priorReport = comparison
    ? await findReadableReport({ db, userId, analysisId: comparison.prior.analysisId })
    : null;
  return {
    chatId: chat.id,
    teamId: chat.teamId,
    result: parsed.data,
    patient: patientOf(chat),
    history: rows.reverse(),
    query,
    metrics,
    metricsSource,
    comparison,
    reportFacts,
    report,
    priorReport,
  };
}

/**
 * Answers a follow-up question as a stream: token chunks, then 'done' once the question and
 * the answer are both stored (together, so a failed reply leaves no unanswered question).
 * Any responder failure becomes the spec's 'Failed to send message. Please try again.'.
 */
export async function* streamChatReply(
  opts: TReplyOpts & { chatId: string; query: string },
): AsyncGenerator<TReplyChunk> {
  yield* replyToChat({ ...opts, context: await loadChatContext(opts) });
}

/** streamChatReply for a context already loaded (and so already checked) by the caller. */
export async function* replyToChat(
  opts: TReplyOpts & { context: TResponderContext & { chatId: string } },
): AsyncGenerator<TReplyChunk> {
  const { db, config, log, meta, userId, context: ctx } = opts;
  const askedAt = new Date();
  const responder = opts.responder ?? selectResponder(config);
  // The reply's one audit entry, written whichever way the responder went.
  const audit = auditOutcomeOf({ db, meta, userId, action: 'chat.message', objectType: 'chat', objectId: ctx.chatId });
  let text = '';
  try {
    for await (const token of responder.reply(ctx, opts.signal)) {
      text += token;
      yield { type: 'token', text: token };
    }
    if (!text.trim()) throw new Error('empty reply');
  } catch (err) {
    if (isAppError(err)) throw err;
    log.warn({ err, responder: responder.name }, 'chat responder failed');
    await audit('failure', { responder: responder.name });
    throw new AppError('UNAVAILABLE', CHAT_MESSAGES.failed, { cause: err });
  }
  const [asked, answered] = await db.transaction(async (tx) => {
    const [q] = await tx
      .insert(messages)
      .values({ chatId: ctx.chatId, role: 'user', content: ctx.query, createdAt: askedAt })
      .returning({ id: messages.id });
    const [a] = await tx
      .insert(messages)
      .values({ chatId: ctx.chatId, role: 'assistant', content: text })
      .returning({ id: messages.id });
    await tx
      .update(chats)
      .set({ updatedAt: new Date() })
      .where(and(eq(chats.id, ctx.chatId), rowAccess(chats, userId, 'read')));
    return [q!, a!];
  });
  await audit('success', { responder: responder.name, messageId: answered.id });
  yield { type: 'done', messageId: asked.id, replyId: answered.id };
}

/** The whole reply at once (the spec's REST shim and tRPC chat.send). */
export async function sendChatMessage(
  opts: Omit<TReplyOpts, 'signal'> & { chatId: string; query: string },
): Promise<{ messageId: string; replyId: string; response: string }> {
  let response = '';
  for await (const chunk of streamChatReply(opts)) {
    if (chunk.type === 'token') response += chunk.text;
    else return { messageId: chunk.messageId, replyId: chunk.replyId, response };
  }
  throw new AppError('UNAVAILABLE', CHAT_MESSAGES.failed);
}
