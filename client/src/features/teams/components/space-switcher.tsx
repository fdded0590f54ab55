import type { TTeamRole } from '@contracts/schemas/team';
import { setSpace, useCurrentSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import './space-switcher.css';

export const ROLE_LABEL: Record<TTeamRole, string> = {
  admin: 'Admin',
  radiologist: 'Radiologist',
  clinician: 'Clinician',
};

const PERSONAL = '';

/**
 * The sidebar's space switcher (issue 32): the personal space and each of the user's teams with
 * their role. History, profiles, new chats and the worklist follow the choice.
 */
export function SpaceSwitcher() {
  const space = useCurrentSpace();
  const teams = trpc.team.list.useQuery();
  const list = teams.data?.teams ?? [];
  // Until the list arrives the remembered team is still an option, so the select shows it.
  const options =
    space && !list.some((t) => t.id === space.teamId) ? [{ id: space.teamId, name: space.name, role: null }] : [];
  const pick = (id: string) => {
    const team = list.find((t) => t.id === id);
    setSpace(team ? { teamId: team.id, name: team.name } : null);
  };
  return (
    <div className="space-switcher">
      <label htmlFor="space-select" className="space-label">
        Space
      </label>
      <select
        id="space-select"
        className="space-select"
        value={space?.teamId ?? PERSONAL}
        onChange={(e) => pick(e.target.value)}
      >
        <option value={PERSONAL}>Personal space</option>
        {[...list, ...options].map((t) => (
          <option key={t.id} value={t.id}>
            {t.role ? `${t.name} (${ROLE_LABEL[t.role]})` : t.name}
          </option>
        ))}
      </select>
    </div>
  );
}
