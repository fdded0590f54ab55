/**
 * A gate that lets at most `n` calls run at once; the others wait in arrival order. Tests that
 * start many requests against one app use it to stay within what the database pool holds.
 */
export function limitInFlight(n: number): <T>(work: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    // A finishing call hands its slot straight to the next waiter, so `active` never exceeds n.
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
