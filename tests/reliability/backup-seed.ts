import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../server/src/deps.js';
import * as s from '../../server/src/db/schema.js';
import { recordAudit } from '../../server/src/services/audit/record-audit.js';
import { contentKey } from '@contracts/image-store.js';
import { teamSlug } from '@contracts/schemas/team.js';
import { hashToken, newToken, sha256Hex } from '../../server/src/lib/tokens.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { testMedicalHistory, testPatientName } from '../helpers/test-patients.js';

/**
 * Fills a database with a bit of everything a backup must carry: every table, jsonb, odd
 * unicode and newlines in text, nulls, stored image bytes, and a chain of audit entries.
 * Rows go in directly (not through services) so the test does not depend on other features.
 */
export async function seedForBackup(deps: Pick<AppDeps, 'db' | 'images'>): Promise<{ imageKeys: string[] }> {
  const { db } = deps;
  const imageKeys: string[] = [];
  for (let u = 0; u < 2; u++) {
    const [user] = await db
      .insert(s.users)
      .values({
        name: `Dr. Ünïcødé ${u} "quoted"\nnewline`,
        email: `backup-${uniqueSuffix()}@example.test`,
        passwordHash: '$argon2id$v=19$fake',
      })
      .returning();
    if (!user) throw new Error('no user');
    const [session] = await db
      .insert(s.sessions)
      .values({
        userId: user.id,
        tokenHash: hashToken(newToken()),
        expiresAt: new Date(Date.now() + 3600_000),
        ip: '127.0.0.1',
      })
      .returning();
    if (!session) throw new Error('no session');
    // Single sign-on (issue 34): the identity at an IdP and the IdP session behind the app session.
    const [identity] = await db
      .insert(s.userIdentities)
      .values({ userId: user.id, issuer: 'https://idp.example.test', subject: `sub-${u}-ünï` })
      .returning();
    if (!identity) throw new Error('no identity');
    await db
      .insert(s.oidcSessions)
      .values({ sessionId: session.id, identityId: identity.id, sid: `sid-${u}`, idToken: 'eyJ.fake.token' });
    // Teams (issue 32): a team, its admin, an invitation; STOW forwarding (issue 36 S2) for the account.
    const [team] = await db
      .insert(s.teams)
      .values({
        name: `Radiology — St Mary's ${u}`,
        slug: teamSlug(`Radiology — St Mary's ${u}`),
        aeTitle: `CXRTEAM${u}`,
      })
      .returning();
    if (!team) throw new Error('no team');
    await db.insert(s.teamMembers).values({ teamId: team.id, userId: user.id, role: 'admin' });
    await db.insert(s.teamInvitations).values({
      teamId: team.id,
      email: `invitee-${u}@example.test`,
      role: 'clinician',
      tokenHash: hashToken(newToken()),
      invitedBy: user.id,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    });
    await db.insert(s.stowForwarding).values({ userId: user.id, grantedBy: user.id });
    await db
      .insert(s.passwordResetTokens)
      .values({ userId: user.id, tokenHash: hashToken(newToken()), expiresAt: new Date() });
    await db
      .insert(s.apiKeys)
      .values({ userId: user.id, name: 'batch', prefix: 'cxr_abcd', keyHash: hashToken(newToken()) });
    const [profile] = await db
      .insert(s.patientProfiles)
      .values({
        userId: user.id,
        fullName: testPatientName('Backup'),
        age: 40 + u,
        customFields: { Allergies: 'penicillin 💊', 'Key "x"': 'a\\b' },
      })
      .returning();
    if (!profile) throw new Error('no profile');
    // A study received from the DICOM network (issue 24): its PatientID mapping and instance record.
    await db.insert(s.dicomPatients).values({ userId: user.id, dicomPatientId: `PID-${u}`, profileId: profile.id });
    await db.insert(s.dicomInstances).values({
      userId: user.id,
      sopInstanceUid: `1.2.826.0.1.3680043.8.498.${u}`,
      modality: 'CT',
      tags: { StudyDescription: 'CT "chest"' },
      source: 'dimse',
      profileId: profile.id,
      status: 'skipped',
      reason: 'not a chest radiograph (Modality CT)',
    });
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(2048 + i);
      const sha = sha256Hex(bytes);
      const key = contentKey(sha);
      await deps.images.put(key, bytes, 'image/png');
      imageKeys.push(key);
      const [img] = await db
        .insert(s.storedImages)
        .values({
          userId: user.id,
          kind: i === 2 ? 'heatmap' : 'upload',
          storageKey: key,
          sha256: sha,
          mediaType: 'image/png',
          bytes: bytes.length,
          width: 10,
          height: 10,
        })
        .returning();
      const [chat] = await db
        .insert(s.chats)
        .values({
          userId: user.id,
          profileId: i === 0 ? null : profile?.id,
          title: `Chat ${i} <script>x</script>`,
          imageId: img?.id,
          patient: { full_name: testPatientName(), age: '41', medical_history: testMedicalHistory() },
        })
        .returning();
      if (!chat) throw new Error('no chat');
      const [an] = await db
        .insert(s.analyses)
        .values({
          userId: user.id,
          chatId: chat.id,
          imageId: img?.id,
          status: 'completed',
          stage: 'done',
          modelVersion: 'm1',
          result: { findings: [{ label: 'Effusion', p: 0.123456789 }] },
          timings: { infer: 12.5 },
          startedAt: new Date(),
          completedAt: new Date(),
        })
        .returning();
      await db.insert(s.messages).values([
        { chatId: chat.id, role: 'user', content: 'Question with\ttab and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢' },
        {
          chatId: chat.id,
          role: 'assistant',
          content: 'Report',
          disease: 'Effusion',
          analysisId: an?.id,
          imageId: img?.id,
        },
      ]);
      if (an) {
        // The drafted report and a signed addendum (issue 41's tables): every table holds rows.
        await db.insert(s.reports).values({
          analysisId: an.id,
          status: i % 2 ? 'amended' : 'draft',
          examination: 'Chest radiograph, PA <b>',
          comparison: 'None.',
          findings: 'Lungs: clear.\nHeart: CTR 0.48.',
          impression: '1. No finding flagged — ünïcødé',
          draftImpression: '1. No finding flagged',
          draftedBy: 'm1',
          ...(i % 2 ? { signedBy: user.id, signedByName: 'Dr Seed', signedAt: new Date() } : {}),
        });
        if (i % 2) {
          const [addendum] = await db
            .insert(s.reportAddenda)
            .values({
              analysisId: an.id,
              text: 'Addendum with "quotes"',
              signedBy: user.id,
              signedByName: 'Dr Seed',
            })
            .returning();
          await db.insert(s.reportDeliveries).values([
            { analysisId: an.id, destination: 'hl7', status: 'delivered', attempts: 2, deliveredAt: new Date() },
            {
              analysisId: an.id,
              addendumId: addendum!.id,
              destination: 'dicom',
              status: 'failed',
              attempts: 6,
              lastError: 'network error',
              seriesInstanceUid: '2.25.1',
              sopInstanceUid: '2.25.2',
            },
          ]);
        }
        // Issue 49's claims (one model for uploads and network studies) and issue 47's shadow output.
        await db.insert(s.studyClaims).values({
          studyId: an.id,
          analysisId: an.id,
          claimedBy: user.id,
          claimedAt: new Date(),
          ...(i % 2 ? { reviewedBy: user.id, reviewedAt: new Date() } : {}),
        });
        await db.insert(s.shadowOutputs).values({
          analysisId: an.id,
          modelId: 'imported-densenet',
          modelVersion: '1.0.0',
          probabilities: i % 2 ? { pleural_effusion: 0.123456789 } : null,
          thresholds: { pleural_effusion: 0.5 },
          inferenceMs: 354.5,
          rssMb: 459.25,
        });
        await db.insert(s.findingFeedback).values({
          userId: user.id,
          chatId: chat.id,
          analysisId: an.id,
          finding: 'Effusion',
          verdict: i % 2 ? 'agree' : 'disagree',
          reading: 'present',
          note: 'Note with "quotes" and ünïcødé',
          modelVersion: 'm1',
          modelProbability: 0.123456789,
          modelCall: 'negative',
        });
      }
    }
    for (let a = 0; a < 3; a++) {
      await recordAudit({
        db,
        meta: { ip: '10.0.0.1', requestId: `r${a}` },
        entry: {
          actorUserId: user.id,
          action: 'test.backup',
          objectType: 'chat',
          objectId: String(a),
          outcome: a % 2 ? 'failure' : 'success',
          details: { n: a, ok: true, z: null },
        },
      });
    }
  }
  await db.insert(s.siteCalibrations).values({
    source: 'feedback',
    method: 'youden',
    modelSha256: 'ab'.repeat(32),
    modelVersion: 'm1',
    findings: [{ label: 'Effusion', siteThreshold: 0.31, modelThreshold: 0.38, cases: 40 }],
  });
  await db.insert(s.siteSettings).values({ key: 'urgent_findings', value: ['pneumothorax'] });
  await db.insert(s.modelRegistryEvents).values({
    action: 'promote',
    modelId: 'imported-densenet',
    fromModelId: 'shipped',
    toModelId: 'imported-densenet',
    comparison: { studies: 12, note: 'ünïcødé "quoted"' },
    confirmed: true,
    actorName: 'Dr Seed',
  });
  return { imageKeys };
}

/** Row count of every public table. */
export async function rowCounts(db: AppDeps['db']): Promise<Record<string, number>> {
  const tables = (await db.execute(
    sql`select tablename as t from pg_tables where schemaname = 'public' order by 1`,
  )) as unknown as { rows: { t: string }[] };
  const out: Record<string, number> = {};
  for (const { t } of tables.rows) {
    const r = (await db.execute(sql.raw(`select count(*)::int as n from "${t}"`))) as unknown as {
      rows: { n: number }[];
    };
    out[t] = r.rows[0]?.n ?? 0;
  }
  return out;
}
