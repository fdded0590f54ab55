/**
 * What the shipped model assesses, read from its manifest (models/cxr/manifest.json) through the
 * shared contract (contracts/model/manifest-summary.ts): the findings it reports and the
 * candidates it does not (model 2+ `notAssessed`), and whether it measures heart size. Pure, so
 * it can be tested without a build; model-facts.ts feeds it.
 */
import { parseManifestSummary, type TManifestSummary } from '@contracts/model/manifest-summary.js';

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

/** The scope of a read manifest; null when it names no findings (the page then names none). */
export function scopeOf(m: TManifestSummary): TModelScope | null {
  if (m.findings.length === 0) return null;
  return {
    modelName: m.modelName ?? 'the shipped model',
    modelVersion: m.modelVersion ?? '',
    assessed: m.findings.map((f) => ({ label: f.label, display: f.display ?? f.label, summary: f.summary === true })),
    notAssessed: m.notAssessed.map((f) => ({ label: f.label, display: f.display ?? f.label })),
    measuresHeartSize: m.anatomy !== null,
  };
}

export const parseModelScope = (raw: unknown): TModelScope | null => scopeOf(parseManifestSummary(raw));
