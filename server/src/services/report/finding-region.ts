/**
 * Where a radiology report's FINDINGS section puts each finding. The labels come from the
 * stored result (the manifest's), never from here: this only says which region a known label
 * reads under, and any label it does not know reads under the lungs, so a finding a new model
 * adds still appears in the report.
 */
export const REPORT_REGIONS = ['lungs', 'pleura', 'heart'] as const;
export type TReportRegion = (typeof REPORT_REGIONS)[number];

export const REGION_HEADINGS: Record<TReportRegion, string> = {
  lungs: 'Lungs',
  pleura: 'Pleura',
  heart: 'Heart and mediastinum',
};

const REGION_OF_LABEL: Readonly<Record<string, TReportRegion>> = {
  pleural_effusion: 'pleura',
  pleural_thickening: 'pleura',
  pneumothorax: 'pleura',
  cardiomegaly: 'heart',
  hernia: 'heart',
};

export const regionOf = (label: string): TReportRegion => REGION_OF_LABEL[label] ?? 'lungs';
