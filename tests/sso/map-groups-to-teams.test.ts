import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadConfig } from '@contracts/config/server-config.js';
import { groupsOf, mapGroupsToTeams } from '../../server/src/services/sso/map-groups-to-teams.js';

const config = loadConfig({
  OIDC_ISSUER: 'https://idp.example/realms/h',
  OIDC_CLIENT_ID: 'cxr',
  OIDC_TEAM_MAP: 'cxr-rad-leads=radiology:admin, cxr-radiology=radiology:radiologist,cxr-ed=emergency:clinician',
});
const settings = { groupsClaim: 'groups', teamMap: config.OIDC_TEAM_MAP };

describe('OIDC groups → teams', () => {
  test('OIDC_TEAM_MAP parses to entries, and a malformed entry stops the boot naming it', () => {
    assert.deepEqual(config.OIDC_TEAM_MAP[1], { group: 'cxr-radiology', team: 'radiology', role: 'radiologist' });
    for (const bad of [
      'cxr-ed=emergency',
      '=emergency:clinician',
      'g=Emergency:clinician',
      'g=a:b:c',
      'g=radiology:lead',
    ])
      assert.throws(
        () => loadConfig({ OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'c', OIDC_TEAM_MAP: bad }),
        (err: Error) => err.message.includes('OIDC_TEAM_MAP') && err.message.includes(bad),
      );
  });

  test('an issuer needs a client id, and password login off needs an issuer', () => {
    assert.throws(() => loadConfig({ OIDC_ISSUER: 'https://idp.example' }), /OIDC_CLIENT_ID/);
    assert.throws(() => loadConfig({ PASSWORD_LOGIN: 'off' }), /PASSWORD_LOGIN/);
    assert.equal(loadConfig({}).OIDC_ISSUER, undefined, 'unset: SSO off, nothing else required');
  });

  test('each mapped group gives its team and role; unmapped groups give nothing', () => {
    assert.deepEqual(mapGroupsToTeams({ groups: ['cxr-ed', 'payroll'] }, settings), [
      { team: 'emergency', role: 'clinician' },
    ]);
    assert.deepEqual(mapGroupsToTeams({ groups: ['payroll'] }, settings), []);
    assert.deepEqual(mapGroupsToTeams({}, settings), []);
  });

  test('two roles in one team: the entry listed first wins, whatever order the IdP sends', () => {
    const both = [{ team: 'radiology', role: 'admin' }];
    assert.deepEqual(mapGroupsToTeams({ groups: ['cxr-radiology', 'cxr-rad-leads'] }, settings), both);
    assert.deepEqual(mapGroupsToTeams({ groups: ['cxr-rad-leads', 'cxr-radiology'] }, settings), both);
  });

  test('a group removed at the IdP is gone from the next mapping (a demotion applies)', () => {
    const before = mapGroupsToTeams({ groups: ['cxr-rad-leads', 'cxr-ed'] }, settings);
    const after = mapGroupsToTeams({ groups: ['cxr-radiology'] }, settings);
    assert.deepEqual(before, [
      { team: 'radiology', role: 'admin' },
      { team: 'emergency', role: 'clinician' },
    ]);
    assert.deepEqual(after, [{ team: 'radiology', role: 'radiologist' }]);
  });

  test('the claim may be one string, nested (Keycloak realm_access.roles), or junk', () => {
    assert.deepEqual(groupsOf({ groups: 'cxr-ed' }, 'groups'), ['cxr-ed']);
    assert.deepEqual(groupsOf({ realm_access: { roles: ['cxr-ed', 7] } }, 'realm_access.roles'), ['cxr-ed']);
    assert.deepEqual(groupsOf({ groups: { a: 1 } }, 'groups'), []);
    assert.deepEqual(groupsOf({ groups: ['CXR-ED'] }, 'groups').length, 1);
    assert.deepEqual(mapGroupsToTeams({ groups: ['CXR-ED'] }, settings), [], 'group names compare exactly');
  });
});
