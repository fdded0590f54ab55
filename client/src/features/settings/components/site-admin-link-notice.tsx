import { useState } from 'react';
import { useSearch } from 'wouter/use-browser-location';
import {
  SITE_ADMIN_LINK_OUTCOMES,
  SITE_ADMIN_LINK_PARAM,
  SITE_MESSAGES,
  type TSiteAdminLinkOutcome,
} from '@contracts/schemas/site';
import './site-admin-link-notice.css';

/** The outcome the mailed site-admin link landed with (`?site-admin=`), or null. */
export function useSiteAdminLinkOutcome(): TSiteAdminLinkOutcome | null {
  const value = new URLSearchParams(useSearch()).get(SITE_ADMIN_LINK_PARAM);
  return SITE_ADMIN_LINK_OUTCOMES.find((o) => o === value) ?? null;
}

/**
 * What following the mailed site-admin link did, in words (issue 41 part 6): the server sends the
 * browser here with the outcome only. Dismissing drops it from the address bar too, so a reload
 * does not say it again.
 */
export function SiteAdminLinkNotice({ outcome }: { outcome: TSiteAdminLinkOutcome }) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  const confirmed = outcome === 'confirmed';
  const dismiss = () => {
    history.replaceState(history.state, '', location.pathname);
    setShown(false);
  };
  return (
    <div
      className={`link-notice ${confirmed ? 'link-notice-ok' : 'link-notice-error'}`}
      role={confirmed ? 'status' : 'alert'}
      data-testid="site-admin-link-notice"
    >
      <p>
        {confirmed
          ? `${SITE_MESSAGES.verified}. The Site tab below holds the site's settings.`
          : SITE_MESSAGES.verifyInvalid}
      </p>
      <button type="button" className="button button-secondary" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
