import { z } from 'zod';

/**
 * manifest.json of a model folder (models/cxr, MODEL_DIR): the one contract between the Python
 * exporter and the TypeScript worker, server and client. The worker refuses a model whose
 * manifest fails it; the server and the pages read the parts they show through its lenient
 * view (manifest-summary.ts). models/cxr/manifest.schema.json is this schema as JSON Schema for the
 * Python side (written by scripts/write-model-schema.ts, held in sync by a test). Fields added
 * for model 3 and model 4 (projection, withdrawn, apWeight, requiresCtr) are optional so older files still load. Unknown keys are kept (the exporter
 * records provenance the product does not read).
 */

const finite = z.number().finite();

export const ZManifestInput = z.object({
  name: z.string().min(1),
  layout: z.literal('NCHW'),
  channels: z.union([z.literal(1), z.literal(3)]),
  height: z.number().int().positive(),
  width: z.number().int().positive(),
  /** 'gray-bt601' (1 channel) or 'rgb' (3 channels, gray images replicated). */
  colour: z.enum(['gray-bt601', 'rgb']).optional(),
  /** Only 'area-stretch' (box filter, aspect ratio not kept) is implemented. */
  resize: z.literal('area-stretch').optional(),
  /**
   * 'lung-box': the classifier sees the film cropped to the anatomy stage's lung-field box.
   * 'centre': the largest centred square of the whole film (torchxrayvision's XRayCenterCrop), for
   * an imported model (issue 47), with or without the anatomy stage in front of it.
   */
  crop: z.enum(['lung-box', 'centre']).optional(),
  scale: finite,
  mean: z.array(finite).min(1),
  std: z.array(finite).min(1),
});

const ZHeadRef = z.object({ head: z.string(), label: z.string() });

export const ZManifestHead = z.object({
  name: z.string().min(1),
  output: z.string().min(1),
  activation: z.enum(['softmax', 'sigmoid']),
  labels: z.array(z.string()).min(1),
  /** One temperature for the head, or one per label (per-label Platt scaling of sigmoid heads). */
  temperature: z.union([finite, z.array(finite)]).optional(),
  bias: z.array(finite).optional(),
  conditionalOn: ZHeadRef.optional(),
});

export const ZManifestFinding = z.object({
  label: z.string().min(1),
  display: z.string().optional(),
  source: z.object({ head: z.string(), label: z.string().optional(), complementOf: z.string().optional() }),
  threshold: z.number().min(0).max(1).optional(),
  /**
   * Issue 48: the calibrated probability from which a flag reads "Likely" (chosen for precision out
   * of fold, models/cxr/likely-points.json); absent: 50 % (contracts/finding-call.ts LIKELY_FROM).
   * Below it and at or above `threshold` a flag reads "Possible".
   */
  likelyThreshold: z.number().min(0).max(1).optional(),
  /** A channel of the CAM output. */
  heatmap: z.string().optional(),
  /** A summary score (e.g. abnormal) that is never the top finding. */
  summary: z.boolean().optional(),
  /** Joint probability with this head label's probability. */
  conditionalOn: ZHeadRef.optional(),
  /**
   * p = sigmoid(logitWeight * logit(p) + ctrWeight * ctr + apWeight * (projection is AP ? 1 : 0) + bias)
   * when a plausible CTR was measured (apWeight, model 4: the heart is magnified on AP films).
   */
  ctrCombine: z
    .object({ logitWeight: finite, ctrWeight: finite, apWeight: finite.optional(), bias: finite })
    .optional(),
  /** With ctrCombine: the classifier-alone threshold, used when the CTR is missing or flagged. */
  thresholdWithoutCtr: z.number().min(0).max(1).optional(),
  /**
   * With ctrCombine (model 4): without a plausible CTR there is no call at all (the finding is
   * reported as not measurable with the CTR's reason), never the classifier alone.
   */
  requiresCtr: z.boolean().optional(),
  /**
   * 'pediatric': validated only in children; shown only when the patient's age says child. 'adult' (model 5's
   * airspace opacity): validated only in adults; withheld when the patient's age says child.
   */
  ageGroup: z.enum(['pediatric', 'adult']).optional(),
  /** Which held-out population decided the finding (model card). */
  population: z.string().optional(),
});

/** Thresholds of the CTR plausibility checks (worker/src/pipeline/check-ctr.ts); each has a default. */
export const ZCtrChecks = z.object({
  minHeartTop: finite.optional(),
  maxHeartBelowBases: finite.optional(),
  minLungArea: finite.optional(),
  minLungSymmetry: finite.optional(),
  minLungFill: finite.optional(),
  maxHeartToLung: finite.optional(),
  maxCtr: finite.optional(),
});

export const ZManifestAnatomy = z.object({
  file: z.string().min(1),
  sha256: z.string().min(1),
  input: ZManifestInput,
  masks: z.object({ output: z.string().min(1), channels: z.tuple([z.literal('lung'), z.literal('heart')]) }),
  boxMargin: finite,
  minLungFraction: finite,
  minHeartPixels: finite,
  ctrReference: finite,
  ctrChecks: ZCtrChecks.optional(),
});

export const ZGateChecks = z.object({
  minSide: finite,
  maxAspect: finite,
  chromaLevel: finite,
  maxColourFraction: finite,
  blankStd: finite,
  lowContrastStd: finite,
});

/**
 * The image check's thresholds when the manifest names none (mirrored by
 * models/train/cxr_train/gate/checks.py): the worker checks with them, the server quotes minSide
 * in the refusal of a job that does not carry it.
 */
export const DEFAULT_GATE_CHECKS: z.infer<typeof ZGateChecks> = {
  minSide: 128,
  maxAspect: 2.0,
  chromaLevel: 38,
  maxColourFraction: 0.05,
  blankStd: 6,
  lowContrastStd: 20,
};

export const ZManifestGate = z.object({
  output: z.string().min(1),
  activation: z.enum(['softmax', 'sigmoid']),
  labels: z.array(z.string()).min(1),
  acceptLabel: z.string(),
  rejectLabel: z.string(),
  rejectThreshold: finite,
  invertedLabel: z.string().optional(),
  checks: ZGateChecks.partial().optional(),
  /** Which ONNX file has the gate output: the classifier's (default) or the anatomy stage's. */
  model: z.enum(['classifier', 'anatomy']).optional(),
});

export const ZNotAssessedEntry = z.object({ label: z.string(), display: z.string() });

/**
 * Model 4: the AP/PA projection as an output of one of the ONNX files: its output `output` is a
 * [N, 1] logit; p(AP) = sigmoid(logit / temperature + bias), called AP at p(AP) >= threshold.
 * A DICOM ViewPosition (AP or PA), when the film has one, wins over it.
 */
export const ZManifestProjection = z.object({
  model: z.enum(['classifier', 'anatomy']),
  output: z.string().min(1),
  temperature: finite.positive(),
  bias: finite,
  threshold: z.number().min(0).max(1),
});

/**
 * Model 4: an output that is no longer a finding (e.g. COVID-19, which did not hold up on other
 * hospitals' films): no probability, no call, no urgency, no heatmap; the report names it with its
 * external figure (metrics.json external.candidates[label]).
 */
export const ZWithdrawnEntry = z.object({
  label: z.string().min(1),
  display: z.string().min(1),
  /** 'external': withdrawn on the external validation. */
  reason: z.literal('external'),
});

export const ZModelManifest = z
  .looseObject({
    schemaVersion: z.number().int(),
    modelName: z.string().min(1),
    /** "2.0.0", "3.x.y". */
    modelVersion: z.string().min(1),
    file: z.string().min(1),
    sha256: z.string().min(1),
    trainingData: z.string().optional(),
    input: ZManifestInput,
    heads: z.array(ZManifestHead).min(1),
    cams: z.object({ output: z.string(), channels: z.array(z.string()) }).optional(),
    uncertainMargin: finite.optional(),
    /**
     * Model 5+: the log-odds half-width within which a change between two results is "unchanged" (the timeline),
     * kept apart from uncertainMargin, which model 5 sets to 0 so that every call follows its threshold.
     */
    changeMargin: finite.optional(),
    findings: z.array(ZManifestFinding).optional(),
    notAssessed: z.array(ZNotAssessedEntry).optional(),
    gate: ZManifestGate.optional(),
    anatomy: ZManifestAnatomy.optional(),
    projection: ZManifestProjection.optional(),
    withdrawn: z.array(ZWithdrawnEntry).optional(),
  })
  .superRefine((m, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    const heads = new Map(m.heads.map((h) => [h.name, h]));
    const hasLabel = (ref: { head: string; label: string }) => heads.get(ref.head)?.labels.includes(ref.label) === true;
    for (const h of m.heads) {
      if (h.bias && h.bias.length !== h.labels.length) fail(`head ${h.name}: bias length differs from labels`);
      if (Array.isArray(h.temperature) && h.temperature.length !== h.labels.length)
        fail(`head ${h.name}: temperature length differs from labels`);
      if (h.conditionalOn && !hasLabel(h.conditionalOn)) fail(`head ${h.name}: bad conditionalOn`);
    }
    for (const f of m.findings ?? []) {
      const h = heads.get(f.source.head);
      if (!h) {
        fail(`finding ${f.label}: unknown head ${f.source.head}`);
        continue;
      }
      const lab = f.source.label ?? f.source.complementOf;
      if (!lab || !h.labels.includes(lab)) fail(`finding ${f.label}: unknown label in head ${h.name}`);
      if (f.heatmap && !m.cams?.channels.includes(f.heatmap))
        fail(`finding ${f.label}: unknown heatmap channel ${f.heatmap}`);
      if (f.conditionalOn && !hasLabel(f.conditionalOn)) fail(`finding ${f.label}: bad conditionalOn`);
      if (f.ctrCombine && !m.anatomy) fail(`finding ${f.label}: ctrCombine needs an anatomy stage`);
      if (f.thresholdWithoutCtr !== undefined && !f.ctrCombine)
        fail(`finding ${f.label}: thresholdWithoutCtr needs ctrCombine`);
      if (f.requiresCtr && !f.ctrCombine) fail(`finding ${f.label}: requiresCtr needs ctrCombine`);
      if (f.ctrCombine?.apWeight !== undefined && !m.projection)
        fail(`finding ${f.label}: ctrCombine.apWeight needs a projection output`);
      if (m.withdrawn?.some((w) => w.label === f.label)) fail(`finding ${f.label}: also listed as withdrawn`);
    }
    if (m.projection?.model === 'anatomy' && !m.anatomy) fail('projection.model "anatomy" needs an anatomy stage');
    if (m.gate && !m.gate.labels.includes(m.gate.rejectLabel)) fail('gate.rejectLabel is not a gate label');
    // The classifier sees the lung crop, so a gate on the whole film must come from the anatomy stage.
    if (m.gate && (m.gate.model === 'anatomy') !== Boolean(m.anatomy))
      fail('gate.model must be "anatomy" exactly when there is an anatomy stage');
    if (m.input.crop === 'lung-box' && !m.anatomy) fail(`input.crop ${m.input.crop} needs an anatomy stage`);
    if (m.input.crop && m.input.width !== m.input.height) fail(`a ${m.input.crop} crop is stretched to a square input`);
  });
export type TModelManifest = z.output<typeof ZModelManifest>;

/** The manifest, or the list of what is wrong with it (paths and messages, no values). */
export function parseModelManifest(
  raw: unknown,
): { ok: true; manifest: TModelManifest } | { ok: false; error: string } {
  const r = ZModelManifest.safeParse(raw);
  if (r.success) return { ok: true, manifest: r.data };
  return {
    ok: false,
    error: r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '),
  };
}
