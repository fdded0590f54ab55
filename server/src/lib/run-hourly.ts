/**
 * Runs `task` once shortly after start (10 s, so boot is not slowed) and then hourly, in the
 * server process; its failures are the task's to log. The timers never keep the process alive.
 */
export function runHourly(task: () => void): { close(): Promise<void> } {
  const first = setTimeout(task, 10_000).unref();
  const every = setInterval(task, 3600_000).unref();
  return {
    close: async () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
