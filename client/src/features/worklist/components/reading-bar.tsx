import { trpc } from '../../../lib/trpc';
import { ReadingControl } from './reading-control';

/**
 * Claim and Release beside the film (issue 41): the reading of the team study this analysis was
 * made for (from the DICOM network or uploaded into the team, issue 49), so a radiologist reads
 * from the viewer without going back to the worklist. Nothing for a personal study, nor once the
 * report is signed (the signature ended the reading).
 */
export function ReadingBar({ analysisId, team }: { analysisId: string; team: string }) {
  const study = trpc.worklist.study.useQuery({ analysisId });
  const me = trpc.auth.me.useQuery();
  const teams = trpc.team.list.useQuery();
  const report = trpc.report.get.useQuery({ analysisId });
  const role = teams.data?.teams.find((t) => t.id === team)?.role;
  if (!study.data || !me.data || !role || (report.data && report.data.status !== 'draft')) return null;
  return (
    <section className="reading-bar" aria-label="Reading" data-testid="reading-bar">
      <ReadingControl item={study.data} myId={me.data.user.id} role={role} />
    </section>
  );
}
