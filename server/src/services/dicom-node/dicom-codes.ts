/** A coded concept: (code value, coding scheme, meaning), as DICOM code sequences carry it. */
export interface TCode {
  CodeValue: string;
  CodingSchemeDesignator: string;
  CodeMeaning: string;
}

/** A code and where it comes from: a PS3.16 context group or template, SNOMED CT, or our own scheme. */
export interface TSourcedCode {
  code: TCode;
  /** e.g. 'CID 7021' (PS3.16 context group), 'TID 1501' (template row), 'SNOMED CT', 'private'. */
  source: string;
}

/** This product's private scheme (PS3.16 8.2: private designators start with 99). Used only where no standard code exists. */
export const PRIVATE_SCHEME = '99CXRAI';
/** IHE's scheme for the Contributing Equipment purpose (IHE RAD TF-3 AIR, not in PS3.16). */
export const IHE_SCHEME = '99IHE';

const code = (CodeValue: string, CodingSchemeDesignator: string, CodeMeaning: string, source: string) => ({
  code: { CodeValue, CodingSchemeDesignator, CodeMeaning },
  source,
});

/**
 * Every fixed code the results use, with its source, in one table (tests/dicom-node/dicom-codes.test.ts
 * checks each "CID n" entry against PS3.16's context groups as pixelmed ships them).
 */
export const CODE_TABLE = {
  imagingMeasurementReport: code('126000', 'DCM', 'Imaging Measurement Report', 'CID 7021'),
  language: code('121049', 'DCM', 'Language of Content Item and Descendants', 'TID 1204'),
  english: code('en-US', 'RFC5646', 'English (United States)', 'CID 5000'),
  observerType: code('121005', 'DCM', 'Observer Type', 'TID 1002'),
  device: code('121007', 'DCM', 'Device', 'CID 270'),
  deviceObserverUid: code('121012', 'DCM', 'Device Observer UID', 'TID 1004'),
  deviceObserverName: code('121013', 'DCM', 'Device Observer Name', 'TID 1004'),
  deviceObserverManufacturer: code('121014', 'DCM', 'Device Observer Manufacturer', 'TID 1004'),
  deviceObserverModelName: code('121015', 'DCM', 'Device Observer Model Name', 'TID 1004'),
  procedureReported: code('121058', 'DCM', 'Procedure reported', 'TID 1500'),
  // CID 100 has no radiography procedure in PS3.16 2022 (pixelmed's build warns); SNOMED CT has one.
  chestRadiograph: code('399208008', 'SCT', 'Plain chest X-ray', 'SNOMED CT'),
  imageLibrary: code('111028', 'DCM', 'Image Library', 'TID 1600'),
  imageLibraryGroup: code('126200', 'DCM', 'Image Library Group', 'TID 1600'),
  imagingMeasurements: code('126010', 'DCM', 'Imaging Measurements', 'TID 1500'),
  qualitativeEvaluations: code('C0034375', 'UMLS', 'Qualitative Evaluations', 'TID 1500'),
  measurementGroup: code('125007', 'DCM', 'Measurement Group', 'TID 1501'),
  trackingIdentifier: code('112039', 'DCM', 'Tracking Identifier', 'TID 1501'),
  trackingUid: code('112040', 'DCM', 'Tracking Unique Identifier', 'TID 1501'),
  finding: code('121071', 'DCM', 'Finding', 'TID 1501'),
  algorithmName: code('111001', 'DCM', 'Algorithm Name', 'TID 4019'),
  algorithmVersion: code('111003', 'DCM', 'Algorithm Version', 'TID 4019'),
  // The likelihood that the finding is present: the calibrated probability, 0..1.
  probability: code('111012', 'DCM', 'Certainty of Finding', 'CID 6048'),
  positive: code('10828004', 'SCT', 'Positive', 'CID 250'),
  negative: code('260385009', 'SCT', 'Negative', 'CID 250'),
  // CID 250 is extensible; "possible" (near the threshold) has no code there.
  inconclusive: code('419984006', 'SCT', 'Inconclusive', 'SNOMED CT'),
  comment: code('121106', 'DCM', 'Comment', 'DCM'),
  noUnits: code('1', 'UCUM', 'no units', 'UCUM'),
  // The signed report (issue 41), TID 2000 "Basic Diagnostic Imaging Report": its title, the
  // radiologist as observer, the four sections (CID 7001) each holding its narrative (CID 7002).
  diagnosticImagingReport: code('18748-4', 'LN', 'Diagnostic Imaging Report', 'CID 7000'),
  person: code('121006', 'DCM', 'Person', 'CID 270'),
  personObserverName: code('121008', 'DCM', 'Person Observer Name', 'TID 1003'),
  currentProcedureDescriptions: code('121064', 'DCM', 'Current Procedure Descriptions', 'CID 7001'),
  priorProcedureDescriptions: code('121066', 'DCM', 'Prior Procedure Descriptions', 'CID 7001'),
  findings: code('121070', 'DCM', 'Findings', 'CID 7001'),
  impressions: code('121072', 'DCM', 'Impressions', 'CID 7001'),
  addendum: code('121078', 'DCM', 'Addendum', 'CID 7001'),
  procedureDescription: code('121065', 'DCM', 'Procedure Description', 'CID 7002'),
  impression: code('121073', 'DCM', 'Impression', 'CID 7002'),
  processingAlgorithm: code('Newcode1', IHE_SCHEME, 'Processing Algorithm', 'IHE RAD TF-3 AIR'),
  // No standard code for these: the private scheme, declared in CodingSchemeIdentificationSequence.
  threshold: code('THRESH', PRIVATE_SCHEME, 'Operating threshold', 'private'),
  // Flagged at a high-sensitivity operating point below 50 % (contracts/finding-call.ts): not a positive call.
  possible: code('POSSIBLE', PRIVATE_SCHEME, 'Possible — flagged for review', 'private'),
  ctr: code('CTR', PRIVATE_SCHEME, 'Cardiothoracic ratio', 'private'),
  heartWidth: code('HEARTW', PRIVATE_SCHEME, 'Maximal heart width', 'private'),
  thoraxWidth: code('THORAXW', PRIVATE_SCHEME, 'Maximal inner thoracic width', 'private'),
} satisfies Record<string, TSourcedCode>;

export type TCodeName = keyof typeof CODE_TABLE;
export const C = Object.fromEntries(Object.entries(CODE_TABLE).map(([k, v]) => [k, v.code])) as Record<
  TCodeName,
  TCode
>;

/**
 * SNOMED CT concepts for the findings that have one. The model's manifest decides which findings
 * ship; a label missing here is still reported, under the private scheme with its display name,
 * so a new finding needs no change here to appear in the SR.
 */
export const FINDING_CODES: Record<string, TCode> = {
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

function sct(CodeValue: string, CodeMeaning: string): TCode {
  return { CodeValue, CodingSchemeDesignator: 'SCT', CodeMeaning };
}

export function findingCode(label: string, display: string): TCode {
  return (
    FINDING_CODES[label] ?? {
      CodeValue: label.slice(0, 16).toUpperCase(),
      CodingSchemeDesignator: PRIVATE_SCHEME,
      CodeMeaning: display.slice(0, 64),
    }
  );
}

const SCHEME_DECLARATIONS: Record<string, Record<string, string>> = {
  [PRIVATE_SCHEME]: {
    CodingSchemeDesignator: PRIVATE_SCHEME,
    CodingSchemeName: 'Chest Doctor AI codes',
    CodingSchemeResponsibleOrganization: 'Chest Doctor AI',
  },
  [IHE_SCHEME]: {
    CodingSchemeDesignator: IHE_SCHEME,
    CodingSchemeName: 'IHE Radiology AI Results codes',
    CodingSchemeResponsibleOrganization: 'IHE Radiology',
  },
};

/**
 * The CodingSchemeIdentificationSequence for a data set: one item per private scheme that one of
 * its code sequences uses, so a reader (and dciodvfy) can tell whose codes they are.
 */
export function declareSchemes(dataset: unknown): Record<string, string>[] {
  const used = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.CodingSchemeDesignator === 'string') used.add(o.CodingSchemeDesignator);
      Object.values(o).forEach(walk);
    }
  };
  walk(dataset);
  return Object.keys(SCHEME_DECLARATIONS)
    .filter((s) => used.has(s))
    .map((s) => SCHEME_DECLARATIONS[s]!);
}
