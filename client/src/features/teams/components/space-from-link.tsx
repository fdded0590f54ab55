import { useEffect } from 'react';
import { navigate, usePathname, useSearch } from 'wouter/use-browser-location';
import { setSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';

/**
 * An address with `?space=<team id>` (where an SSO sign-in lands, issue 41) switches to that team
 * when the user is one of its members, then drops the parameter; a team they are not in changes
 * nothing. Renders nothing.
 */
export function SpaceFromLink() {
  const pathname = usePathname();
  const wanted = new URLSearchParams(useSearch()).get('space');
  const teams = trpc.team.list.useQuery(undefined, { enabled: Boolean(wanted) });
  useEffect(() => {
    if (!wanted || !teams.data) return;
    const team = teams.data.teams.find((t) => t.id === wanted);
    if (team) setSpace({ teamId: team.id, name: team.name });
    navigate(pathname, { replace: true });
  }, [wanted, teams.data, pathname]);
  return null;
}
