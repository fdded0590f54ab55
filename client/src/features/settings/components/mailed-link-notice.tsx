import { useState } from 'react';
import { useSearch } from 'wouter/use-browser-location';
import {
  MAILED_LINK_OUTCOMES,
  MAILED_LINK_PARAMS,
  type TMailedLink,
  type TMailedLinkOutcome,
} from '@contracts/schemas/mailed-link';
import './mailed-link-notice.css';

/** The outcome a mailed link landed with (`?site-admin=` or `?dicom-owner=`), or null. */
export function useMailedLinkOutcome(link: TMailedLink): TMailedLinkOutcome | null {
  const value = new URLSearchParams(useSearch()).get(MAILED_LINK_PARAMS[link]);
  return MAILED_LINK_OUTCOMES.find((o) => o === value) ?? null;
}

/**
 * What following a mailed confirmation link did, in words (issue 41 part 6): the server sends the
 * browser here with the outcome only. Dismissing drops it from the address bar too, so a reload
 * does not say it again.
 */
export function MailedLinkNotice({
  link,
  outcome,
  confirmed,
  invalid,
}: {
  link: TMailedLink;
  outcome: TMailedLinkOutcome;
  confirmed: string;
  invalid: string;
}) {
  const [shown, setShown] = useState(true);
  if (!shown) return null;
  const ok = outcome === 'confirmed';
  const dismiss = () => {
    history.replaceState(history.state, '', location.pathname);
    setShown(false);
  };
  return (
    <div
      className={`link-notice ${ok ? 'link-notice-ok' : 'link-notice-error'}`}
      role={ok ? 'status' : 'alert'}
      data-testid={`${MAILED_LINK_PARAMS[link]}-link-notice`}
    >
      <p>{ok ? confirmed : invalid}</p>
      <button type="button" className="button button-secondary" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
