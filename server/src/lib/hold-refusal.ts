export interface TRefusalHold {
  /** Resolves after the delay, or at once when the delay is off, the cap is reached or close() ran. */
  hold(): Promise<void>;
  /** How many refusals wait now. */
  held(): number;
  /** Ends every wait at once (server shutdown) and every later one too. */
  close(): void;
}

/**
 * Waits before a 429 is sent. A client that retries the moment it is refused (a guessing run
 * with a fixed number of connections) otherwise turns refusals into the server's busiest work:
 * in bench:login-flood (REFUSAL_DELAY_MS=0), 16 such loops drew 1,000 to 3,000 refusals a second,
 * each parsed, counted in Redis and answered on the event loop other users share. Held for a second, each connection
 * gets one refusal a second. At most `maxHeld` wait at once; past that a refusal goes out
 * straight away, so the hold can never pin more than that many sockets.
 */
export function createRefusalHold(opts: { delayMs: number; maxHeld: number }): TRefusalHold {
  const waiting = new Set<() => void>();
  let closed = false;
  return {
    hold() {
      if (opts.delayMs <= 0 || waiting.size >= opts.maxHeld || closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          waiting.delete(release);
          resolve();
        };
        // Unref'd: a held refusal never keeps a stopping process alive.
        const timer = setTimeout(release, opts.delayMs);
        timer.unref();
        waiting.add(release);
      });
    },
    held: () => waiting.size,
    close() {
      closed = true;
      for (const release of [...waiting]) release();
    },
  };
}
