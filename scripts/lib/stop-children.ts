import type { ChildProcess } from 'node:child_process';

/** SIGTERM to every child, resolved once each has exited (one already gone is not waited for). */
export async function stopChildren(children: readonly ChildProcess[]): Promise<void> {
  for (const c of children) c.kill('SIGTERM');
  // A child ended by a signal has exitCode null but signalCode set: it will emit no further 'exit'.
  await Promise.all(
    children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
}
