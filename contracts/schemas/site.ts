import { z } from 'zod';
import { mailedLinkLanding, type TMailedLinkOutcome } from './mailed-link.js';

/** Site administration (issue 17): calibration of operating points and the drift monitor. */
export const SITE_MESSAGES = {
  adminsOnly: 'Only site administrators can do this',
  noProposal: 'Calibration proposal not found',
  notEnoughCases: (min: number) =>
    `Not enough labelled cases to calibrate any finding: each needs at least ${min} cases, with at least 5 read present and 5 read absent`,
  modelChanged:
    'This calibration was made for another model version; propose a new one from cases read with the current model',
  csvInvalid:
    'The results CSV needs a header with "label", "status" and p_<finding> columns (npm run batch writes one)',
  applied: 'Site thresholds applied to new analyses',
  reverted: 'Site thresholds reverted: new analyses use the model defaults',
  nothingApplied: 'No site thresholds are applied',
  urgentSaved: 'Urgent findings saved: the worklist uses them now',
  unknownFinding: 'Choose among the findings the shipped model reports',
  notListed: 'This address is not one the operator listed for site administration',
  verifySent: 'Check your email: we sent a link to confirm your address',
  verified: 'Address confirmed: you are a site administrator',
  verifyInvalid: 'This confirmation link has expired or is invalid. Please ask for a new one.',
} as const;

/** Where the mailed site-admin link lands a browser (see mailed-link.ts). */
export const siteAdminLanding = (outcome: TMailedLinkOutcome) => mailedLinkLanding('siteAdmin', outcome);

export const ZCalibrationMethod = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('youden') }),
  z.object({ kind: z.literal('target-sensitivity'), sensitivity: z.number().min(0.5).max(0.999) }),
]);
export type TCalibrationMethod = z.infer<typeof ZCalibrationMethod>;

export const ZProposeInput = z.object({
  source: z.enum(['feedback', 'csv']),
  method: ZCalibrationMethod,
  /** The text of a labelled results CSV (`npm run batch` with a label column), for source "csv". */
  csv: z.string().max(5_000_000).optional(),
});
export type TProposeInput = z.infer<typeof ZProposeInput>;

const ZInterval = z.tuple([z.number(), z.number()]);

/** One finding's proposal: its site threshold and what it does on the site's own cases. */
export const ZFindingCalibration = z.object({
  finding: z.string(),
  display: z.string(),
  threshold: z.number(),
  defaultThreshold: z.number(),
  cases: z.number().int(),
  positives: z.number().int(),
  negatives: z.number().int(),
  sensitivity: z.number(),
  sensitivityCi95: ZInterval,
  specificity: z.number(),
  specificityCi95: ZInterval,
  /** The same figures at the model's default threshold, for comparison. */
  defaultSensitivity: z.number(),
  defaultSpecificity: z.number(),
});
export type TFindingCalibration = z.infer<typeof ZFindingCalibration>;

/** A finding left out of a proposal and why (too few cases). */
export const ZSkippedFinding = z.object({
  finding: z.string(),
  cases: z.number().int(),
  positives: z.number().int(),
  reason: z.string(),
});

export const ZCalibration = z.object({
  id: z.uuid(),
  status: z.enum(['proposed', 'applied', 'superseded', 'reverted']),
  source: z.enum(['feedback', 'csv']),
  method: z.string(),
  modelVersion: z.string(),
  modelSha256: z.string(),
  findings: z.array(ZFindingCalibration),
  skipped: z.array(ZSkippedFinding),
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
});
export type TCalibration = z.infer<typeof ZCalibration>;

export const ZCalibrationState = z.object({
  model: z.object({ version: z.string(), sha256: z.string() }).nullable(),
  /** The applied calibration, also when a model change has made it inactive. */
  applied: ZCalibration.nullable(),
  /** False when `applied` was made for another model: it is ignored, and `warning` says so. */
  active: z.boolean(),
  warning: z.string().nullable(),
  minCases: z.number().int(),
});
export type TCalibrationState = z.infer<typeof ZCalibrationState>;

export const ZApplyInput = z.object({ calibrationId: z.string().max(100) });

/** siteAdmin: show the Site tab; canClaim: the address is listed, so offer the confirmation e-mail. */
export const ZSiteAccess = z.object({ siteAdmin: z.boolean(), canClaim: z.boolean() });

export const ZMonitoringInput = z.object({ weeks: z.coerce.number().int().min(1).max(52).default(8) });

/** One ISO week (Monday, UTC) of aggregates: counts, PSI against the validation reference, feedback agreement. */
export const ZMonitoringWeek = z.object({
  week: z.string().describe('The Monday the week starts on, YYYY-MM-DD (UTC)'),
  analyses: z.number().int(),
  refused: z.number().int(),
  psi: z.record(z.string(), z.number().nullable()),
  agreement: z.record(z.string(), z.number().nullable()),
  feedback: z.record(z.string(), z.number().int()),
});
export type TMonitoringWeek = z.infer<typeof ZMonitoringWeek>;

export const ZMonitoring = z.object({
  weeks: z.array(ZMonitoringWeek),
  /** The validation distribution PSI is computed against; null: no reference file, so no PSI is shown. */
  reference: z.object({ modelVersion: z.string(), films: z.number().int(), splits: z.string() }).nullable(),
  /**
   * The shipped reference was made for another model (a model swap without a new reference): it is
   * not applied, `reference` is null and this says so to the site admin.
   */
  staleReference: z.object({ modelVersion: z.string(), message: z.string() }).nullable(),
  findings: z.array(z.object({ label: z.string(), display: z.string() })),
  psiAlert: z.number(),
  /** Weeks with fewer scored films than this show no PSI (too few to tell a shift from noise). */
  psiMinScores: z.number().int(),
  agreementFloor: z.number(),
  /** Banner lines for admins: a finding whose PSI or agreement crossed its limit in some week. */
  alerts: z.array(z.string()),
});
export type TMonitoring = z.infer<typeof ZMonitoring>;

/**
 * Which findings make a worklist study Urgent when called "Likely" (issue 48); with `alsoPossible`
 * a "Possible" flag of one of them does too. No finding chosen: nothing is Urgent. `alsoPossible`
 * absent: the stored choice stays.
 */
export const ZUrgentFindingsInput = z.object({
  labels: z.array(z.string().min(1).max(100)).max(100),
  alsoPossible: z.boolean().optional(),
});
export type TUrgentFindingsInput = z.infer<typeof ZUrgentFindingsInput>;

export const ZUrgentFindings = z.object({
  /** The shipped model's findings (summary scores left out), each with whether the site made it urgent. */
  findings: z.array(z.object({ label: z.string(), display: z.string(), urgent: z.boolean() })),
  /** Issue 48: a "Possible" flag of an urgent finding also makes a study Urgent (default false: "Likely" only). */
  alsoPossible: z.boolean(),
  /** When a site administrator last chose; null: never (nothing is Urgent). */
  updatedAt: z.iso.datetime().nullable(),
});
export type TUrgentFindings = z.infer<typeof ZUrgentFindings>;
