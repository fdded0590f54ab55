/**
 * A structural check of FHIR R4 resources, written for the tests because no FHIR validator can
 * be installed here (the official one is a Java program fetched from outside the npm registry).
 * It checks what the exports rely on: resource types, the required elements of each resource we
 * emit (cardinality 1..1 in the R4 spec), value-set codes we use, and that every reference
 * resolves to an entry of the bundle. It does not check profiles or terminology bindings.
 */
type TJson = Record<string, unknown>;

const REQUIRED: Record<string, string[]> = {
  Bundle: ['type'],
  DiagnosticReport: ['status', 'code'],
  Observation: ['status', 'code'],
  Patient: [],
  Device: [],
  Practitioner: [],
  Media: ['status', 'content'],
  ImagingStudy: ['status', 'subject'],
  Provenance: ['target', 'recorded', 'agent'],
};
/**
 * The resource types R4 allows behind the references the exports write (issue 49: R4's
 * DiagnosticReport.performer cannot be a Device; the device's authorship goes in a Provenance).
 */
const REFERENCE_TYPES: Record<string, Record<string, string[]>> = {
  DiagnosticReport: {
    subject: ['Patient', 'Group', 'Device', 'Location'],
    performer: ['Practitioner', 'PractitionerRole', 'Organization', 'CareTeam'],
    resultsInterpreter: ['Practitioner', 'PractitionerRole', 'Organization', 'CareTeam'],
    result: ['Observation'],
    imagingStudy: ['ImagingStudy'],
  },
  Observation: { device: ['Device', 'DeviceMetric'] },
  ImagingStudy: { subject: ['Patient', 'Device', 'Group'] },
};
/** FHIR R4's status value sets for the resources the exports write. */
export const STATUS: Record<string, string[]> = {
  DiagnosticReport: [
    'registered',
    'partial',
    'preliminary',
    'final',
    'amended',
    'corrected',
    'appended',
    'cancelled',
    'entered-in-error',
    'unknown',
  ],
  Observation: [
    'registered',
    'preliminary',
    'final',
    'amended',
    'corrected',
    'cancelled',
    'entered-in-error',
    'unknown',
  ],
  Media: ['preparation', 'in-progress', 'not-done', 'on-hold', 'stopped', 'completed', 'entered-in-error', 'unknown'],
  ImagingStudy: ['registered', 'available', 'cancelled', 'entered-in-error', 'unknown'],
};
const BUNDLE_TYPES = [
  'document',
  'message',
  'transaction',
  'transaction-response',
  'batch',
  'batch-response',
  'history',
  'searchset',
  'collection',
];

function collectReferences(value: unknown, out: string[]): void {
  if (Array.isArray(value)) value.forEach((v) => collectReferences(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') out.push(v);
      else collectReferences(v, out);
    }
  }
}

function checkCodeableConcept(cc: unknown, where: string, errors: string[]): void {
  const c = cc as TJson | undefined;
  if (!c || (typeof c.text !== 'string' && !Array.isArray(c.coding)))
    errors.push(`${where}: CodeableConcept needs coding or text`);
  for (const coding of (c?.coding as TJson[] | undefined) ?? []) {
    if (typeof coding.system !== 'string' || typeof coding.code !== 'string')
      errors.push(`${where}: coding needs system and code`);
  }
}

/** Returns the problems found; an empty list means the bundle passed. */
export function checkFhirBundle(bundle: TJson): string[] {
  const errors: string[] = [];
  if (bundle.resourceType !== 'Bundle') errors.push('not a Bundle');
  if (!BUNDLE_TYPES.includes(String(bundle.type))) errors.push(`bad Bundle.type ${String(bundle.type)}`);
  const entries = (bundle.entry as TJson[] | undefined) ?? [];
  const fullUrls = new Set<string>();
  for (const [i, e] of entries.entries()) {
    const r = e.resource as TJson | undefined;
    const where = `entry[${i}]`;
    if (!r || typeof r.resourceType !== 'string') {
      errors.push(`${where}: no resource`);
      continue;
    }
    if (typeof e.fullUrl !== 'string' || fullUrls.has(e.fullUrl)) errors.push(`${where}: missing or duplicate fullUrl`);
    else fullUrls.add(e.fullUrl);
    if (typeof r.id === 'string' && !/^[A-Za-z0-9\-.]{1,64}$/.test(r.id)) errors.push(`${where}: bad id`);
    const type = r.resourceType;
    if (!(type in REQUIRED)) errors.push(`${where}: unexpected resourceType ${type}`);
    for (const field of REQUIRED[type] ?? [])
      if (r[field] === undefined) errors.push(`${where} ${type}: missing ${field}`);
    if (STATUS[type] && !STATUS[type].includes(String(r.status)))
      errors.push(`${where} ${type}: bad status ${String(r.status)}`);
    if (r.code !== undefined) checkCodeableConcept(r.code, `${where} ${type}.code`, errors);
    if (type === 'Observation') {
      const values = Object.keys(r).filter((k) => k.startsWith('value'));
      if (values.length > 1) errors.push(`${where}: more than one value[x]`);
      const q = r.valueQuantity as TJson | undefined;
      if (q && typeof q.value !== 'number') errors.push(`${where}: valueQuantity.value must be a number`);
    }
    if (type === 'DiagnosticReport') {
      const div = (r.text as TJson | undefined)?.div;
      if (div !== undefined && !/^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">[\s\S]*<\/div>$/.test(String(div)))
        errors.push(`${where}: narrative div is not XHTML`);
    }
  }
  const refs: string[] = [];
  collectReferences(
    entries.map((e) => e.resource),
    refs,
  );
  for (const ref of refs) if (!fullUrls.has(ref)) errors.push(`unresolved reference ${ref}`);
  const typeOf = new Map(entries.map((e) => [e.fullUrl, (e.resource as TJson | undefined)?.resourceType]));
  for (const [i, e] of entries.entries()) {
    const r = (e.resource ?? {}) as TJson;
    for (const [field, allowed] of Object.entries(REFERENCE_TYPES[String(r.resourceType)] ?? {})) {
      const value = r[field];
      for (const target of (Array.isArray(value) ? value : value ? [value] : []) as TJson[]) {
        const type = typeOf.get(target.reference);
        if (type && !allowed.includes(String(type)))
          errors.push(`entry[${i}] ${String(r.resourceType)}.${field} cannot reference a ${String(type)}`);
      }
    }
  }
  return errors;
}
