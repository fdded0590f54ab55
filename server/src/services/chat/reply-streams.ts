import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { CHAT_MESSAGES, type TReplyChunk } from '@contracts/schemas/chat.js';
import type { Responder } from './responders/responder.js';
import { membershipHub } from '../teams/membership-signal.js';
import { loadChatContext, replyToChat } from './stream-chat-reply.js';

/** A finished stream is kept this long for a subscriber that connects late. */
const KEEP_MS = 60_000;
/**
 * After its last subscriber leaves, an unfinished reply gets this long for one to come back (an
 * SSE reconnect) before its LLM call is aborted: a closed tab must not keep a model busy.
 */
export const ABANDON_MS = 1_000;

interface TStream {
  userId: string;
  chunks: TReplyChunk[];
  error: AppError | null;
  finished: boolean;
  /** The author left the chat's team: nothing more is delivered, to any tab. */
  cutOff: boolean;
  events: EventEmitter;
  /** Subscribers following the stream right now. */
  followers: number;
  abort: AbortController;
  abandonTimer: NodeJS.Timeout | null;
}

const streams = new Map<string, TStream>();

/**
 * Starts a streamed reply and returns its id at once: the question travels in a POST body (a
 * subscription's input would put it in a URL), the tokens over `chat.onReply`. A stream lives in
 * the server process that started it, so several servers behind a balancer need sticky routing
 * for /trpc (documented in ARCHITECTURE.md).
 */
export async function startReplyStream(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    chatId: string;
    query: string;
    responder?: Responder;
  },
): Promise<{ streamId: string }> {
  const { userId } = opts;
  // Loaded before answering, so ownership and readiness errors reach the mutation; loaded once.
  const context = await loadChatContext(opts);
  const streamId = randomUUID();
  const s: TStream = {
    userId,
    chunks: [],
    error: null,
    finished: false,
    cutOff: false,
    events: new EventEmitter(),
    followers: 0,
    abort: new AbortController(),
    abandonTimer: null,
  };
  streams.set(streamId, s);
  // A team chat's reply stops the moment its author leaves the team (whichever process served it).
  const teamId = context.teamId;
  const stopWatching = teamId
    ? await membershipHub({ redis: opts.redis, prefix: opts.config.QUEUE_PREFIX }).onRemoved(userId, (left) => {
        if (left !== teamId) return;
        s.cutOff = true;
        s.abort.abort();
        s.events.emit('change');
      })
    : () => undefined;
  void (async () => {
    try {
      for await (const chunk of replyToChat({ ...opts, context, signal: s.abort.signal })) {
        s.chunks.push(chunk);
        s.events.emit('change');
      }
    } catch (err) {
      s.error = isAppError(err) ? err : new AppError('UNAVAILABLE', CHAT_MESSAGES.failed);
    } finally {
      s.finished = true;
      if (s.abandonTimer) clearTimeout(s.abandonTimer);
      s.events.emit('change');
      // Watched while kept: a late subscriber after a removal must not read the finished reply either.
      setTimeout(() => {
        stopWatching();
        streams.delete(streamId);
      }, KEEP_MS).unref();
    }
  })();
  return { streamId };
}

/** The chunks of one of userId's streams from the start; another user's id reads as unknown. */
export async function* followReplyStream(
  userId: string,
  streamId: string,
  signal?: AbortSignal,
): AsyncGenerator<TReplyChunk> {
  const s = streams.get(streamId);
  if (!s || s.userId !== userId) throw new AppError('NOT_FOUND', CHAT_MESSAGES.failed);
  s.followers++;
  if (s.abandonTimer) clearTimeout(s.abandonTimer);
  s.abandonTimer = null;
  try {
    let sent = 0;
    for (;;) {
      // Answers like a stream that never was: the chat is no longer theirs to read.
      if (s.cutOff) throw new AppError('NOT_FOUND', CHAT_MESSAGES.failed);
      while (sent < s.chunks.length && !s.cutOff) yield s.chunks[sent++]!;
      if (s.cutOff) continue;
      if (s.finished) {
        if (s.error) throw s.error;
        return;
      }
      if (signal?.aborted) return;
      await nextChange(s.events, signal);
    }
  } finally {
    if (--s.followers === 0 && !s.finished) {
      s.abandonTimer = setTimeout(() => s.abort.abort(), ABANDON_MS);
      s.abandonTimer.unref();
    }
  }
}

/** Resolves on the stream's next change or on abort, and removes both listeners either way. */
function nextChange(events: EventEmitter, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      events.off('change', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    events.on('change', done);
    signal?.addEventListener('abort', done);
  });
}
