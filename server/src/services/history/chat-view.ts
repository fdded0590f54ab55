import { sql } from 'drizzle-orm';
import { chats, messages, type TPatientSnapshot } from '../../db/schema.js';
import type { TChatMessage, TChatSummary } from '@contracts/schemas/history.js';
import { imageUrlOf } from '../images/image-url.js';
import { NO_MEDICAL_HISTORY } from './format-medical-history.js';

/** The columns every chat read selects (explicit, so nothing else can leak). */
export const chatColumns = {
  id: chats.id,
  userId: chats.userId,
  profileId: chats.profileId,
  title: chats.title,
  patient: chats.patient,
  imageId: chats.imageId,
  createdAt: chats.createdAt,
  updatedAt: chats.updatedAt,
  /** created_at at full precision, for keyset cursors. */
  cursorTs: sql<string>`${chats.createdAt}::text`,
  // Last: list-chats.ts reads these columns by position.
  teamId: chats.teamId,
};

export interface TChatRow {
  id: string;
  /** Null: a team row whose author deleted their account (the row stays the team's). */
  userId: string | null;
  profileId: string | null;
  title: string;
  patient: TPatientSnapshot;
  imageId: string | null;
  createdAt: Date;
  updatedAt: Date;
  cursorTs: string;
  /** The team the chat belongs to; null in its author's personal space. */
  teamId: string | null;
}

export const messageColumns = {
  id: messages.id,
  chatId: messages.chatId,
  role: messages.role,
  content: messages.content,
  disease: messages.disease,
  imageId: messages.imageId,
  createdAt: messages.createdAt,
  cursorTs: sql<string>`${messages.createdAt}::text`,
};

export interface TMessageRow {
  id: string;
  chatId: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  disease: string | null;
  imageId: string | null;
  createdAt: Date;
  cursorTs: string;
}

export type TLatestAnalysis = TChatSummary['latestAnalysis'];

/** The snapshot as stored, read defensively (older rows or hand edits must not crash a list). */
export function patientOf(chat: Pick<TChatRow, 'patient'>): TPatientSnapshot {
  const p = (chat.patient ?? {}) as Partial<Record<keyof TPatientSnapshot, unknown>>;
  return {
    full_name: typeof p.full_name === 'string' && p.full_name ? p.full_name : 'Unknown',
    age: p.age === undefined || p.age === null ? '' : String(p.age),
    medical_history:
      typeof p.medical_history === 'string' && p.medical_history ? p.medical_history : NO_MEDICAL_HISTORY,
  };
}

export function toChatSummary(chat: TChatRow, latestAnalysis: TLatestAnalysis): TChatSummary {
  return {
    id: chat.id,
    title: chat.title,
    patientName: patientOf(chat).full_name,
    profileId: chat.profileId,
    imageUrl: imageUrlOf(chat.imageId),
    createdAt: chat.createdAt.toISOString(),
    updatedAt: chat.updatedAt.toISOString(),
    latestAnalysis,
  };
}

export function toChatMessage(m: TMessageRow): TChatMessage {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    disease: m.disease,
    imageUrl: imageUrlOf(m.imageId),
    createdAt: m.createdAt.toISOString(),
  };
}

/** The spec's REST chat: `{ chat_id, title, image_url, created_at, updated_at, profile, messages }`. */
export function toLegacyChat(chat: TChatRow, chatMessages: readonly TMessageRow[]) {
  return {
    chat_id: chat.id,
    title: chat.title,
    image_url: imageUrlOf(chat.imageId),
    created_at: chat.createdAt.toISOString(),
    updated_at: chat.updatedAt.toISOString(),
    profile: patientOf(chat),
    messages: chatMessages.map((m) => ({
      role: m.role,
      content: m.content,
      timestamp: m.createdAt.toISOString(),
      disease: m.disease,
      image_url: imageUrlOf(m.imageId),
    })),
  };
}
