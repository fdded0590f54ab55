import { uniqueSuffix } from './test-config.js';

/**
 * Every patient name a test invents contains this marker, so that the run-end log scan
 * (tests/setup/scan-logs-after-run.ts) can search the whole run's logs for patient data without
 * knowing each test's names.
 * Use testPatientName() (or put the marker in the name yourself) for any patient, chat title or
 * message text that a real deployment would treat as patient data.
 */
export const TEST_PATIENT_MARKER = 'Zqxpatient';

/** Fixed names for tests that want readable ones; each carries the marker. */
export const TEST_PATIENT_NAMES = [
  `${TEST_PATIENT_MARKER} Ada Lovelace`,
  `${TEST_PATIENT_MARKER} Grace Hopper`,
  `${TEST_PATIENT_MARKER} Émile Zoë Ærøskøbing`,
  `${TEST_PATIENT_MARKER} 山田 太郎`,
] as const;

/** A unique patient name carrying the marker ("Zqxpatient Ada 3f9a1c0b2d4e"). */
export function testPatientName(label = 'Patient'): string {
  return `${TEST_PATIENT_MARKER} ${label} ${uniqueSuffix()}`;
}

/** A medical-history line that is also patient data (and so carries the marker). */
export function testMedicalHistory(): string {
  return `${TEST_PATIENT_MARKER} history: asthma since childhood, smoker 10 pack-years`;
}
