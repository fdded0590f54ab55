import type { Query, QueryClient } from '@tanstack/react-query';
import { errorInfo } from './error-text';

/**
 * A call scoped to a team (its input names `team`) answered 404 or 403: the user may have been
 * removed from the team. team.list is re-read at once, and the space guard
 * (features/teams/hooks/use-space-guard.ts) takes them back to their personal space if so.
 */
export function makeRecheckSpace(
  queryClient: QueryClient,
): (err: unknown, query: Query<unknown, unknown, unknown>) => void {
  return (err, query) => {
    const { status, code } = errorInfo(err);
    const lost = status === 404 || status === 403 || code === 'NOT_FOUND' || code === 'FORBIDDEN';
    if (!lost) return;
    const input = (query.queryKey[1] as { input?: { team?: unknown; teamId?: unknown } } | undefined)?.input;
    if (!input?.team && !input?.teamId) return;
    void queryClient.invalidateQueries({ queryKey: [['team', 'list']] });
  };
}
