/** The server cannot be reached at all: nothing was uploaded, the run stops at once. */
export class ServerUnreachableError extends Error {}

/**
 * One request before the first upload. Without it a dead server cost every image its retries
 * (about 7 s each: 10,000 images took hours to fail). Any HTTP answer from /healthz counts as
 * reachable (a busy server may answer 429); only a refused connection, a timeout or an answer
 * that is not this app stop the run.
 */
export async function checkServer(url: string, timeoutMs = 5000): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (err as Error).name === 'TimeoutError'
        ? `no answer in ${timeoutMs / 1000}s`
        : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new ServerUnreachableError(`Cannot reach the server at ${url} (${why}). Is it running, and is --api right?`);
  }
  await res.body?.cancel();
  if (res.status === 404)
    throw new ServerUnreachableError(`${url} answers, but not as Chest Doctor AI (/healthz: 404). Is --api right?`);
}
