import { and, eq, isNull } from 'drizzle-orm';
import { dicomPatients, patientProfiles } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { recordAudit } from '../audit/record-audit.js';
import { formatPersonName, parseAgeString, ageAtStudy } from '../dicom/read-dicom-patient.js';
import type { TInstanceTags } from './read-instance-tags.js';

/** The custom field that shows which PACS patient a profile was made for. */
export const DICOM_PATIENT_ID_FIELD = 'DICOM Patient ID';

class MappingRace extends Error {}

/**
 * The receiving space's profile for this PatientID (the account's personal space, or with
 * `teamId` the team's, whoever filed the earlier instances): the one already mapped, or a new
 * one made from the DICOM tags (name, age) with the PatientID as a custom field, owned by the
 * space. Two instances of a new patient arriving together make one profile (the loser of the
 * unique index rolls back). Returns null when the instance has no PatientID.
 */
export async function matchPatientProfile(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta; userId: string; teamId: string | null; tags: TInstanceTags },
): Promise<string | null> {
  const { db, meta, userId, teamId, tags } = opts;
  const pid = tags.PatientID?.trim();
  if (!pid) return null;
  const find = async () => {
    const [row] = await db
      .select({ profileId: dicomPatients.profileId })
      .from(dicomPatients)
      .where(
        and(
          teamId
            ? eq(dicomPatients.teamId, teamId)
            : and(eq(dicomPatients.userId, userId), isNull(dicomPatients.teamId)),
          eq(dicomPatients.dicomPatientId, pid),
        ),
      )
      .limit(1);
    return row?.profileId ?? null;
  };
  const found = await find();
  if (found) return found;
  const name = formatPersonName(tags.PatientName);
  const age = parseAgeString(tags.PatientAge) ?? ageAtStudy(tags.PatientBirthDate, tags.StudyDate);
  try {
    const profileId = await db.transaction(async (tx) => {
      const [profile] = await tx
        .insert(patientProfiles)
        .values({
          userId,
          teamId,
          fullName: name && name.length >= 3 ? name.slice(0, 100) : 'Unknown',
          age: age !== null && age >= 0 && age <= 150 ? age : 0,
          customFields: { [DICOM_PATIENT_ID_FIELD]: pid.slice(0, 64) },
        })
        .returning({ id: patientProfiles.id });
      const [mapped] = await tx
        .insert(dicomPatients)
        .values({ userId, teamId, dicomPatientId: pid, profileId: profile!.id })
        .onConflictDoNothing()
        .returning({ id: dicomPatients.id });
      if (!mapped) throw new MappingRace();
      return profile!.id;
    });
    await recordAudit({
      db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'profile.create',
        objectType: 'patient_profile',
        objectId: profileId,
        outcome: 'success',
        details: { source: 'dicom', teamId },
      },
    });
    return profileId;
  } catch (err) {
    if (err instanceof MappingRace) return find();
    throw err;
  }
}
