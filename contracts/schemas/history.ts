import { z } from 'zod';
import { ZAnalysisStatus } from './analysis.js';
import { ZTeamId } from './team.js';

/**
 * Chat history: the tRPC procedures' inputs and outputs (camelCase, documented here as the
 * contract the web client codes against) and the spec's REST bodies (snake_case).
 */
export const HISTORY_MESSAGES = {
  emptyTitle: 'Chat title cannot be empty',
  longTitle: 'Chat title is too long',
  chatNotFound: 'Chat not found',
  /** 409 (issue 46 H4): deleting the chat would delete the signed report with it. */
  signedReport:
    'This chat holds a signed radiology report and cannot be deleted: a signed report is part of the medical record',
} as const;

export const CHAT_TITLE_MAX = 200;

/** Trimmed; the client cancels an edit that is empty after trimming, the server refuses it. */
export const ZChatTitle = z
  .string({ error: HISTORY_MESSAGES.emptyTitle })
  .trim()
  .min(1, HISTORY_MESSAGES.emptyTitle)
  .max(CHAT_TITLE_MAX, HISTORY_MESSAGES.longTitle);

/** Ids are plain text: a malformed id must answer exactly like a missing one (404). */
const ZChatId = z.string({ error: HISTORY_MESSAGES.chatNotFound }).max(100, HISTORY_MESSAGES.chatNotFound);

export const ZLatestAnalysis = z.object({ id: z.uuid(), status: ZAnalysisStatus, stage: z.string() }).nullable();

/** One row of the sidebar's history list. */
export const ZChatSummary = z.object({
  id: z.uuid(),
  title: z.string(),
  /** From the patient snapshot the chat was started with (survives the profile's deletion). */
  patientName: z.string(),
  /** The profile it was started from; null once that profile is deleted. */
  profileId: z.uuid().nullable(),
  /** `/api/images/<id>` (authorised route) or null. */
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The newest analysis of the chat, if any. */
  latestAnalysis: ZLatestAnalysis,
});
export type TChatSummary = z.infer<typeof ZChatSummary>;

export const ZHistoryListInput = z
  .object({
    cursor: z.string().max(200).nullish(),
    limit: z.number().int().min(1).max(100).default(30),
    /** The team whose chats to list; absent: the personal space. */
    team: ZTeamId.nullish(),
  })
  .default({ limit: 30 });

/** Newest first; pass nextCursor back as cursor for the next (older) page; null at the end. */
export const ZHistoryListOutput = z.object({ items: z.array(ZChatSummary), nextCursor: z.string().nullable() });
export type THistoryListOutput = z.infer<typeof ZHistoryListOutput>;

export const ZChatMessage = z.object({
  id: z.uuid(),
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  disease: z.string().nullable(),
  /** The message's image (the uploaded X-ray, a heatmap overlay) as `/api/images/<id>`, or null. */
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatDetail = ZChatSummary.extend({ patientAge: z.string(), medicalHistory: z.string() });
export type TChatDetail = z.infer<typeof ZChatDetail>;

export const ZHistoryGetInput = z.object({
  chatId: ZChatId,
  /** olderCursor of a previous answer, to load the messages before those already shown. */
  cursor: z.string().max(200).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** messages: the newest `limit` messages before the cursor, oldest first (display order). */
export const ZHistoryGetOutput = z.object({
  chat: ZChatDetail,
  messages: z.array(ZChatMessage),
  olderCursor: z.string().nullable(),
});
export type THistoryGetOutput = z.infer<typeof ZHistoryGetOutput>;

export const ZEditTitleInput = z.object({ chatId: ZChatId, title: ZChatTitle });
export const ZEditTitleOutput = z.object({ id: z.uuid(), title: z.string(), updatedAt: z.string() });
export const ZChatIdInput = z.object({ chatId: ZChatId });
export const ZDeleteChatOutput = z.object({ chatId: z.string() });

/** The spec's REST bodies. */
export const ZLegacyEditTitleBody = z.object({ chat_id: ZChatId, title: ZChatTitle });
export const ZLegacyChatIdBody = z.object({ chat_id: ZChatId });
