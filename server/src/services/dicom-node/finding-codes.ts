/** A coded concept: (code value, coding scheme, meaning), as DICOM code sequences carry it. */
export interface TCode {
  CodeValue: string;
  CodingSchemeDesignator: string;
  CodeMeaning: string;
}

const sct = (CodeValue: string, CodeMeaning: string): TCode => ({
  CodeValue,
  CodingSchemeDesignator: 'SCT',
  CodeMeaning,
});
const dcm = (CodeValue: string, CodeMeaning: string): TCode => ({
  CodeValue,
  CodingSchemeDesignator: 'DCM',
  CodeMeaning,
});
/** This product's private scheme (PS3.16 8.2: private designators start with 99). */
export const PRIVATE_SCHEME = '99CXRAI';
const own = (CodeValue: string, CodeMeaning: string): TCode => ({
  CodeValue,
  CodingSchemeDesignator: PRIVATE_SCHEME,
  CodeMeaning,
});

/**
 * SNOMED CT concepts for the findings that have one. The model's manifest decides which
 * findings ship; a label missing here is still reported, under the private scheme with its
 * display name, so a new finding needs no change here to appear in the SR.
 */
const FINDING_CODES: Record<string, TCode> = {
  pneumonia: sct('233604007', 'Pneumonia'),
  covid19: sct('840539006', 'COVID-19'),
  atelectasis: sct('46621007', 'Atelectasis'),
  cardiomegaly: sct('8186001', 'Cardiomegaly'),
  pleural_effusion: sct('60046008', 'Pleural effusion'),
  pneumothorax: sct('36118008', 'Pneumothorax'),
  consolidation: sct('95436008', 'Lung consolidation'),
  edema: sct('19242006', 'Pulmonary edema'),
  emphysema: sct('87433001', 'Pulmonary emphysema'),
  fibrosis: sct('51615001', 'Fibrosis of lung'),
  nodule: sct('427359005', 'Solitary nodule of lung'),
};

export function findingCode(label: string, display: string): TCode {
  return FINDING_CODES[label] ?? own(label.slice(0, 16).toUpperCase(), display.slice(0, 64));
}

export const CODES = {
  report: { CodeValue: '18748-4', CodingSchemeDesignator: 'LN', CodeMeaning: 'Diagnostic imaging study' },
  comment: dcm('121106', 'Comment'),
  algorithmName: dcm('111001', 'Algorithm Name'),
  algorithmVersion: dcm('111003', 'Algorithm Version'),
  probability: own('PROB', 'Calibrated probability'),
  threshold: own('THRESH', 'Operating threshold'),
  call: own('CALL', 'Call at the operating threshold'),
  ctr: own('CTR', 'Cardiothoracic ratio'),
  positive: sct('10828004', 'Positive'),
  negative: sct('260385009', 'Negative'),
  uncertain: sct('419984006', 'Inconclusive'),
  /** Flagged at a high-sensitivity threshold below 50 %: not a positive call. */
  possible: own('POSSIBLE', 'Possible — flagged for review'),
  noUnits: { CodeValue: '1', CodingSchemeDesignator: 'UCUM', CodeMeaning: 'no units' },
} satisfies Record<string, TCode>;
