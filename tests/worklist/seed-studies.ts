import { analyses, dicomInstances, type TDicomInstanceStatus } from '../../server/src/db/schema.js';
import type { AppDeps } from '../../server/src/deps.js';
import { triageColumns } from '../../server/src/services/dicom-node/worklist-triage.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';
import { createChat } from '../helpers/factories.js';
import { uniqueSuffix } from '../helpers/test-config.js';

export interface TSeedStudy {
  status: TDicomInstanceStatus;
  /** A stored result: the study gets a completed analysis carrying it. */
  result?: unknown;
  /** false: store the result without its triage columns, as rows written before migration 0011. */
  withTriage?: boolean;
  createdAt: Date;
  modality?: string;
  seriesInstanceUid?: string;
  /** The patient and study tags ingestion keeps (read-instance-tags.ts storedTagsOf). */
  tags?: Record<string, string>;
  /** The patient profile ingestion matched (match-patient-profile.ts). */
  profileId?: string;
}

/** A finding for a stored result (display: the label capitalised). */
export const finding = (label: string, probability: number, threshold: number, call: TFinding['call']): TFinding => ({
  label,
  display: label[0]!.toUpperCase() + label.slice(1),
  probability,
  threshold,
  call,
});
/** A finding as the shipped model words it (its display from the knowledge notes' names). */
export const namedFinding = (
  label: string,
  display: string,
  probability: number,
  threshold: number,
  call: TFinding['call'],
): TFinding => ({ label, display, probability, threshold, call });
export const resultOf = (...findings: TFinding[]): TStoredResult => sampleResultV2({ findings, topFinding: null });

/**
 * Worklist studies written straight to the database (a 2,005-slice series in a second): one chat
 * holds every analysis, each study its own SOP Instance UID. Returns the instance ids in order.
 */
export async function seedStudies(
  deps: Pick<AppDeps, 'db' | 'images' | 'config'>,
  owner: { userId: string; teamId?: string | null },
  studies: TSeedStudy[],
): Promise<string[]> {
  const { db } = deps;
  const teamId = owner.teamId ?? null;
  // One random stem per call and a counter under it: a random part per row collided now and then
  // (about 2,000 rows drawn from 12 digits skewed towards 9), which failed the unique SOP UID.
  const uidStem = `1.2.826.0.1.3680043.${BigInt(`0x${uniqueSuffix()}`).toString()}`;
  const { chat } = await createChat(deps, owner.userId, { teamId });
  const ids: string[] = [];
  for (let start = 0; start < studies.length; start += 500) {
    const chunk = studies.slice(start, start + 500);
    const analysed = chunk.filter((s) => s.result !== undefined);
    const analysisIds = analysed.length
      ? await db
          .insert(analyses)
          .values(
            analysed.map((s) => ({
              userId: owner.userId,
              teamId,
              chatId: chat.id,
              status: 'completed' as const,
              stage: 'done',
              result: s.result as Record<string, unknown>,
              ...(s.withTriage === false ? {} : triageColumns(s.result)),
            })),
          )
          .returning({ id: analyses.id })
      : [];
    let next = 0;
    const rows = await db
      .insert(dicomInstances)
      .values(
        chunk.map((s, index) => ({
          userId: owner.userId,
          teamId,
          sopInstanceUid: `${uidStem}.${start + index + 1}`,
          source: 'dimse' as const,
          status: s.status,
          modality: s.modality ?? 'DX',
          seriesInstanceUid: s.seriesInstanceUid ?? null,
          tags: s.tags ?? {},
          profileId: s.profileId ?? null,
          analysisId: s.result !== undefined ? (analysisIds[next++]?.id ?? null) : null,
          createdAt: s.createdAt,
          updatedAt: s.createdAt,
        })),
      )
      .returning({ id: dicomInstances.id });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}
