import { MailedLinkCard } from '../../../components/mailed-link-card';
import { trpc } from '../../../lib/trpc';

/**
 * Shown to an account whose address the operator listed (SITE_ADMIN_EMAILS) but which has not
 * proven it owns that mailbox yet (issue 23 N3): the role follows the mailed link, not the signup.
 */
export function ClaimSiteAdmin() {
  const request = trpc.site.requestAdminVerification.useMutation();
  return (
    <MailedLinkCard id="claim-site-admin" title="Site administration" send={request}>
      Your address is listed for site administration. Confirm it from the link we e-mail you to get the Site tab.
    </MailedLinkCard>
  );
}
