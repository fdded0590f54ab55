import { inArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { siteSettings } from '../../db/schema.js';
import {
  ZDestinationTestResult,
  type TDestination,
  type TDestinationKind,
  type TDestinationTestResult,
  type TSiteDestinations,
} from '@contracts/schemas/site-destinations.js';
import { listStowForwarding } from './stow-forwarding.js';

/** The site_settings key that keeps a destination's last test result. */
export const destinationTestKey = (kind: TDestinationKind) => `destination_test_${kind}`;

const LABEL: Record<TDestinationKind, { label: string; variable: string }> = {
  hl7: { label: 'RIS (HL7 v2 over MLLP)', variable: 'REPORT_HL7_DESTINATION' },
  dicom: { label: 'PACS (DICOM)', variable: 'DICOM_DESTINATION' },
};

/** Where each destination points now, from the server's config ('host:port', 'AE@host:port'). */
function addressOf(config: AppDeps['config'], kind: TDestinationKind): string | null {
  if (kind === 'hl7') {
    const d = config.REPORT_HL7_DESTINATION;
    return d ? `${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}` : null;
  }
  const d = config.DICOM_DESTINATION;
  return d ? `${d.ae}@${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}` : null;
}

/** The last stored test of each destination (an unreadable row reads as never tested). */
async function lastTests(opts: Pick<AppDeps, 'db'>): Promise<Map<string, TDestinationTestResult>> {
  const rows = await opts.db
    .select({ key: siteSettings.key, value: siteSettings.value })
    .from(siteSettings)
    .where(inArray(siteSettings.key, [destinationTestKey('hl7'), destinationTestKey('dicom')]));
  const out = new Map<string, TDestinationTestResult>();
  for (const row of rows) {
    const parsed = ZDestinationTestResult.safeParse(row.value);
    if (parsed.success) out.set(row.key, parsed.data);
  }
  return out;
}

/**
 * Settings → Site's destinations (issue 49 item 7): the RIS and the PACS as configured, each with
 * its last test, the calling AE title the PACS must know, and the STOW-RS forwarding list.
 */
export async function getSiteDestinations(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TSiteDestinations> {
  const { config } = opts;
  const tests = await lastTests(opts);
  const destinations = (['hl7', 'dicom'] as const).map((kind): TDestination => ({
    kind,
    ...LABEL[kind],
    address: addressOf(config, kind),
    lastTest: tests.get(destinationTestKey(kind)) ?? null,
  }));
  return { destinations, callingAe: config.DICOM_AE_TITLE, stowForwarding: await listStowForwarding(opts) };
}
