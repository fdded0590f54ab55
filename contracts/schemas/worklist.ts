import { z } from 'zod';
import { ZTeamId } from './team.js';

/** Where a study from the DICOM network stands (issue 24). */
export const ZWorklistStatus = z.enum(['received', 'queued', 'analysed', 'sent', 'failed', 'skipped']);
export type TWorklistStatus = z.infer<typeof ZWorklistStatus>;

/**
 * Urgency from the calibrated outputs of the shipped findings: urgent when a finding is called
 * positive (or a finding the site made urgent is called, possible included), review when another
 * finding is called possible or one is uncertain, routine when none is; pending before a result
 * exists; none for skipped or failed studies.
 */
export const ZUrgency = z.enum(['urgent', 'review', 'routine', 'pending', 'none']);
export type TUrgency = z.infer<typeof ZUrgency>;

export const ZWorklistInput = z.object({
  statuses: z.array(ZWorklistStatus).max(6).optional(),
  urgencies: z.array(ZUrgency).max(5).optional(),
  limit: z.number().int().min(1).max(500).default(200),
  /** The team whose worklist to read (issue 32); absent: the personal space. */
  team: ZTeamId.nullish(),
});
export type TWorklistInput = z.input<typeof ZWorklistInput>;

export const ZWorklistItem = z.object({
  id: z.uuid(),
  status: ZWorklistStatus,
  reason: z.string().nullable(),
  urgency: ZUrgency,
  /** The lead finding's probability (sort key); null when no finding was called. */
  score: z.number().nullable(),
  /** The most probable called finding (summary score left out): its name, probability and call; null: "No finding called". */
  lead: z.object({ display: z.string(), probability: z.number(), call: z.string() }).nullable(),
  patientName: z.string().nullable(),
  modality: z.string().nullable(),
  viewPosition: z.string().nullable(),
  source: z.enum(['dimse', 'stow']),
  callingAe: z.string().nullable(),
  chatId: z.uuid().nullable(),
  receivedAt: z.string(),
  updatedAt: z.string(),
});
export type TWorklistItem = z.infer<typeof ZWorklistItem>;
export const ZWorklist = z.object({ items: z.array(ZWorklistItem) });
