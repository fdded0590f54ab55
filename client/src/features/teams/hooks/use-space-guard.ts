import { useEffect, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { setSpace, useCurrentSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';

/** How often a member's teams are re-read, so a removal shows even on a screen that is idle. */
const TEAMS_POLL_MS = 30_000;

export function removedFromTeamText(teamName: string): string {
  return `You are no longer a member of ${teamName}. You are back in your personal space.`;
}

/**
 * Keeps the current space one of the user's teams: a team they were removed from (or left in
 * another tab) sends them back to their personal space with a message. team.list is re-read on
 * a timer and at once when a team's call answers 404/403 (lib/recheck-space.ts).
 */
export function useSpaceGuard(): { notice: string | null; dismiss: () => void } {
  const space = useCurrentSpace();
  const teams = trpc.team.list.useQuery(undefined, { refetchInterval: TEAMS_POLL_MS });
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    // Only a settled list counts: one fetched before a team was joined must not evict it.
    if (!space || !teams.data || teams.isFetching) return;
    const team = teams.data.teams.find((t) => t.id === space.teamId);
    if (!team) {
      setSpace(null);
      setNotice(removedFromTeamText(space.name));
      navigate('/chat/profiles', { replace: true });
    } else if (team.name !== space.name) setSpace({ teamId: team.id, name: team.name });
  }, [space, teams.data, teams.isFetching]);
  return { notice, dismiss: () => setNotice(null) };
}
