import type { AppDeps, RequestMeta } from '../../deps.js';
import { siteCalibrations } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { SITE_MESSAGES, type TCalibration, type TProposeInput } from '@contracts/schemas/site.js';
import { recordAudit } from '../audit/record-audit.js';
import { buildProposal, methodName } from './build-proposal.js';
import { calibrationView } from './calibration-view.js';
import { csvCases, feedbackCases } from './collect-cases.js';
import { readLiveModel } from '../models/read-model-facts.js';

/**
 * Proposes site thresholds from the site's labelled cases for the live model (issue 47: the shipped
 * one, or the imported model promoted), and stores the proposal (not yet applied) pinned to that model's sha256. Refuses when no finding has enough
 * cases.
 */
export async function proposeCalibration(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TProposeInput },
): Promise<TCalibration> {
  const { meta, userId, input } = opts;
  const deps = opts;
  const { identity: model } = await readLiveModel(deps);
  if (!model) throw new AppError('UNAVAILABLE', 'The model manifest cannot be read');
  const cases =
    input.source === 'feedback'
      ? await feedbackCases({ db: deps.db, modelVersion: model.modelVersion })
      : csvCases(input.csv ?? '', model.modelVersion);
  const minCases = deps.config.SITE_CALIBRATION_MIN_CASES;
  const proposal = buildProposal(model.findings, cases, input.method, minCases);
  if (proposal.findings.length === 0) {
    await recordAudit({
      db: deps.db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.calibration.propose',
        outcome: 'failure',
        details: { code: 'NOT_ENOUGH_CASES', source: input.source },
      },
    });
    throw new AppError('BAD_REQUEST', SITE_MESSAGES.notEnoughCases(minCases));
  }
  const [row] = await deps.db
    .insert(siteCalibrations)
    .values({
      source: input.source,
      method: methodName(input.method),
      modelSha256: model.sha256,
      modelVersion: model.modelVersion,
      findings: [...proposal.findings, ...proposal.skipped] as unknown as Record<string, unknown>[],
      createdBy: userId,
    })
    .returning();
  await recordAudit({
    db: deps.db,
    meta,
    entry: {
      actorUserId: userId,
      action: 'site.calibration.propose',
      objectType: 'site_calibration',
      objectId: row!.id,
      outcome: 'success',
      details: { source: input.source, findings: proposal.findings.length, skipped: proposal.skipped.length },
    },
  });
  return calibrationView(row!);
}
