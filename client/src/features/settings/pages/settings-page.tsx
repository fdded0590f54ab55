import { useState, type KeyboardEvent } from 'react';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { ApiKeysPanel } from '../components/api-keys-panel';
import { DangerZoneTab } from '../components/danger-zone-tab';
import { PasswordTab } from '../components/password-tab';
import { ProfileTab } from '../components/profile-tab';
import '../../../styles/settings.css';

const TABS = [
  { key: 'profile', label: 'Profile' },
  { key: 'password', label: 'Password' },
  { key: 'danger', label: 'Danger Zone' },
] as const;
type TTab = (typeof TABS)[number]['key'];

export function SettingsPage() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [tab, setTab] = useState<TTab>('profile');

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = TABS.findIndex((t) => t.key === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
    if (!next) return;
    setTab(next.key);
    document.getElementById(`settings-tab-${next.key}`)?.focus();
  };

  if (!me.data) return <Spinner />;
  return (
    <div className="page settings-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Settings</h1>
          <p className="muted">Manage your account.</p>
        </div>
      </header>
      <div className="tabs" role="tablist" aria-label="Settings sections" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.key}
            id={`settings-tab-${t.key}`}
            type="button"
            role="tab"
            className={`tab ${tab === t.key ? 'active' : ''} ${t.key === 'danger' ? 'tab-danger' : ''}`}
            aria-selected={tab === t.key}
            aria-controls={`settings-panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="tab-panel card" role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`}>
        {tab === 'profile' ? (
          // API keys sit under Profile: the spec's three tabs stay as they are.
          <>
            <ProfileTab user={me.data.user} />
            <ApiKeysPanel />
          </>
        ) : tab === 'password' ? <PasswordTab /> : <DangerZoneTab />}
      </div>
    </div>
  );
}
