import { useEffect, useState } from 'react';
import { DICOM_OWNER_MESSAGES } from '@contracts/schemas/dicom-owner';
import { SITE_MESSAGES } from '@contracts/schemas/site';
import { Spinner } from '../../../components/spinner';
import { Tabs, type TTabItem } from '../../../components/tabs';
import { trpc } from '../../../lib/trpc';
import { ApiKeysPanel } from '../components/api-keys-panel';
import { ClaimSiteAdmin } from '../components/claim-site-admin';
import { ConfirmDicomOwner } from '../components/confirm-dicom-owner';
import { DangerZoneTab } from '../components/danger-zone-tab';
import { LinkedIdentitiesPanel } from '../components/linked-identities-panel';
import { MailedLinkNotice, useMailedLinkOutcome } from '../components/mailed-link-notice';
import { PasswordTab } from '../components/password-tab';
import { ProfileTab } from '../components/profile-tab';
import { SiteTab } from '../components/site-tab';
import './settings-page.css';

type TTab = 'profile' | 'password' | 'danger' | 'site';
const TABS: readonly TTabItem<TTab>[] = [
  { key: 'profile', label: 'Profile' },
  { key: 'password', label: 'Password' },
  { key: 'danger', label: 'Danger Zone', className: 'tab-danger' },
];

export function SettingsPage() {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [tab, setTab] = useState<TTab>('profile');
  // Issue 17: site administrators also get the Site tab; a listed address may claim the role (issue 23 N3).
  const access = trpc.site.access.useQuery(undefined, { staleTime: 5 * 60_000 }).data;
  const siteAdmin = access?.siteAdmin === true;
  // Issue 36, S11: the DICOM node's owner confirms the address before the node takes studies.
  const dicomOwner = trpc.dicomOwner.state.useQuery(undefined, { staleTime: 60_000 }).data;
  const tabs = siteAdmin ? [...TABS, { key: 'site' as const, label: 'Site' }] : TABS;
  // Arriving from the mailed site-admin link (issue 41 part 6): say how it went, open the Site tab.
  const linkOutcome = useMailedLinkOutcome('siteAdmin');
  const ownerLinkOutcome = useMailedLinkOutcome('dicomOwner');
  useEffect(() => {
    if (linkOutcome === 'confirmed' && siteAdmin) setTab('site');
  }, [linkOutcome, siteAdmin]);

  if (!me.data) return <Spinner />;
  return (
    <div className="page settings-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Settings</h1>
          <p className="muted">Manage your account.</p>
        </div>
      </header>
      {linkOutcome ? (
        <MailedLinkNotice
          link="siteAdmin"
          outcome={linkOutcome}
          confirmed={`${SITE_MESSAGES.verified}. The Site tab below holds the site's settings.`}
          invalid={SITE_MESSAGES.verifyInvalid}
        />
      ) : null}
      {ownerLinkOutcome ? (
        <MailedLinkNotice
          link="dicomOwner"
          outcome={ownerLinkOutcome}
          confirmed={DICOM_OWNER_MESSAGES.confirmed}
          invalid={DICOM_OWNER_MESSAGES.invalid}
        />
      ) : null}
      <Tabs
        idPrefix="settings"
        label="Settings sections"
        tabs={tabs}
        value={tab}
        onChange={setTab}
        panelClassName="tab-panel card"
      >
        {tab === 'profile' ? (
          // API keys sit under Profile: the spec's three tabs stay as they are.
          <>
            <ProfileTab user={me.data.user} />
            <LinkedIdentitiesPanel />
            <ApiKeysPanel />
            {access?.canClaim && <ClaimSiteAdmin />}
            {dicomOwner?.owner && !dicomOwner.confirmed && <ConfirmDicomOwner />}
          </>
        ) : tab === 'password' ? (
          <PasswordTab />
        ) : tab === 'site' && siteAdmin ? (
          <SiteTab />
        ) : (
          <DangerZoneTab />
        )}
      </Tabs>
    </div>
  );
}
