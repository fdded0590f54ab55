import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { AppDeps } from '../../server/src/deps.js';
import { watchTeamAeTitles, type TTeamRoutes } from '../../server/src/services/dicom-node/watch-team-ae-titles.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTeam } from '../helpers/team-factories.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { useAppWithUser } from '../helpers/use-app-with-user.js';

/**
 * A team AE title equal to the DICOM node's own (issue 39, from the scan's "not reached" list):
 * refused when an admin sets it in any spelling, and, when a team holds it anyway (set before
 * DICOM_AE_TITLE changed, or by SQL), not routed to the team, with a warning naming the team.
 */
describe("a team cannot take the DICOM node's own AE title", () => {
  const s = useAppWithUser({ env: { DICOM_AE_TITLE: 'CXR_AI' } });

  test('team.setAeTitle refuses the node title whatever its case or padding', async () => {
    const team = await createTeam(s.t.deps, { [s.u.user.id]: 'admin' });
    const caller = sessionCaller(s.t.deps, s.u);
    for (const aeTitle of ['CXR_AI', 'cxr_ai', ' Cxr_Ai ', 'CXR_AI  '])
      await assert.rejects(caller.team.setAeTitle({ teamId: team.id, aeTitle }), /node's own AE title/, aeTitle);
    const other = `T${uniqueSuffix().slice(0, 8).toUpperCase()}`;
    assert.deepEqual(await caller.team.setAeTitle({ teamId: team.id, aeTitle: other }), { aeTitle: other });
  });

  test('a team that holds it anyway is left out of the node routes, and the log says which', async () => {
    const other = `R${uniqueSuffix().slice(0, 8).toUpperCase()}`;
    const shadow = await createTeam(s.t.deps, {}, { aeTitle: 'CXR_AI' });
    const routed = await createTeam(s.t.deps, {}, { aeTitle: other });
    const warnings: unknown[] = [];
    const log = { ...s.t.deps.log, info: () => undefined, warn: (fields: unknown) => void warnings.push(fields) };
    let routes: TTeamRoutes | null = null;
    const watch = watchTeamAeTitles({
      ...s.t.deps,
      log: log as unknown as AppDeps['log'],
      onChange: (table) => (routes = table),
    });
    await watch.check();
    watch.stop();
    const table = routes as TTeamRoutes | null;
    assert.ok(table);
    assert.equal(table.get(other), routed.id);
    assert.equal(table.get('CXR_AI'), undefined, "the node's own title stays the owner's");
    assert.deepEqual(warnings, [{ component: 'dicom-node', teamIds: [shadow.id] }]);
  });
});
