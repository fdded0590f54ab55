/** A tRPC query's utils (`utils.team.list`, …): what refreshing it needs. */
interface TRefreshable<TInput> {
  cancel(input?: TInput): Promise<void>;
  invalidate(input?: TInput): Promise<void>;
}

/**
 * Re-reads a query after a mutation changed what it shows, resolving once the new answer is in.
 * React Query's invalidate joins a fetch still under way instead of starting a new one: a first
 * load asked for before the mutation (say, batched with the page's other queries) would answer
 * without the change and stay so. Cancelling that fetch first makes the refetch real.
 */
export function refreshQuery<TInput>(query: TRefreshable<TInput>, input?: TInput): Promise<void> {
  return query.cancel(input).then(() => query.invalidate(input));
}
