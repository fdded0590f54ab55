/**
 * What the shipped model assesses, read from its manifest (models/cxr/manifest.json): the
 * findings it reports and the candidates it does not (model 2+ `notAssessed`), and whether it
 * measures heart size. Pure, so it can be tested without a build; model-facts.ts feeds it.
 */
export interface TModelScope {
  modelName: string;
  modelVersion: string;
  /** Findings reported with a probability; `summary` is the overall "not normal" score. */
  assessed: { label: string; display: string; summary: boolean }[];
  /** Candidate findings this model version cannot back on held-out data. */
  notAssessed: { label: string; display: string }[];
  /** Whether an anatomy stage measures the cardiothoracic ratio. */
  measuresHeartSize: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function labelled(v: unknown): { label: string; display: string; summary: boolean } | null {
  if (!isObject(v)) return null;
  const label = text(v.label);
  return label ? { label, display: text(v.display) ?? label, summary: v.summary === true } : null;
}

export function parseModelScope(raw: unknown): TModelScope | null {
  if (!isObject(raw) || !Array.isArray(raw.findings)) return null;
  const assessed = raw.findings.map(labelled).filter((f) => f !== null);
  if (assessed.length === 0) return null;
  const notAssessed = (Array.isArray(raw.notAssessed) ? raw.notAssessed : [])
    .map(labelled)
    .filter((f) => f !== null)
    .map(({ label, display }) => ({ label, display }));
  return {
    modelName: text(raw.modelName) ?? 'the shipped model',
    modelVersion: text(raw.modelVersion) ?? '',
    assessed,
    notAssessed,
    measuresHeartSize: isObject(raw.anatomy),
  };
}
