import { CliUsageError, parseCliArgs } from '@common/cli-args.js';
import type { TDb } from '../../server/src/db/client.js';
import { grantSiteAdmin, listSiteAdmins, revokeSiteAdmin } from '../../server/src/services/site/site-admin-role.js';

export const USAGE = `Usage: npm run site-admin -- add EMAIL | remove EMAIL | list

Grants or takes away the site-admin role (calibrate thresholds, see the monitor) of an existing
account, or lists who holds it. The account must have signed up first. An address listed in
SITE_ADMIN_EMAILS may also claim the role itself by confirming a link mailed to it (Settings).
With the embedded database (no DATABASE_URL), stop the server first: only one process may open it.
Exit codes: 0 done, 1 no account has that address, 2 usage.`;

export type TSiteAdminCommand = { verb: 'list' } | { verb: 'add' | 'remove'; email: string };

/** Reads the arguments (usage mistakes and --help answer before any database is opened). */
export function parseSiteAdminArgs(argv: string[]): TSiteAdminCommand {
  const { positionals } = parseCliArgs(argv, {});
  const [verb, email, extra] = positionals;
  if (verb === 'list') {
    if (email) throw new CliUsageError('list takes no address');
    return { verb };
  }
  if (verb !== 'add' && verb !== 'remove') throw new CliUsageError('say add, remove or list');
  if (!email || extra) throw new CliUsageError(`${verb} takes exactly one address`);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliUsageError(`not an e-mail address: ${email}`);
  return { verb, email };
}

/** The command's work on an open database; returns the exit code. */
export async function runSiteAdminCommand(opts: {
  db: TDb;
  command: TSiteAdminCommand;
  print: (line: string) => void;
  /** Tells running servers to drop the account's cached sessions, so the change holds at once. */
  announce?: (userId: string) => Promise<void>;
}): Promise<number> {
  const { db, command, print } = opts;
  if (command.verb === 'list') {
    const admins = await listSiteAdmins({ db });
    for (const a of admins) print(`${a.email}\tsince ${a.since.toISOString()}`);
    if (!admins.length) print('no site administrators');
    return 0;
  }
  const { verb, email } = command;
  const userId =
    verb === 'add'
      ? await grantSiteAdmin({ db, meta: null, email, via: 'operator' })
      : await revokeSiteAdmin({ db, meta: null, email });
  if (!userId) {
    print(`no account has the address ${email}: sign up first`);
    return 1;
  }
  await opts.announce?.(userId);
  print(verb === 'add' ? `${email} is a site administrator` : `${email} is no longer a site administrator`);
  return 0;
}
