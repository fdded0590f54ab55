import { MailedLinkCard } from '../../../components/mailed-link-card';
import { trpc } from '../../../lib/trpc';

/**
 * Shown to the account the DICOM node sends its studies to (DICOM_OWNER_EMAIL) until its owner has
 * followed the link mailed to that address (issue 36, S11): until then the node takes no studies.
 * The first link is mailed when the account is made; this sends another.
 */
export function ConfirmDicomOwner() {
  const request = trpc.dicomOwner.requestConfirmation.useMutation();
  return (
    <MailedLinkCard id="confirm-dicom-owner" title="DICOM node" send={request}>
      This account receives the studies the hospital&apos;s PACS sends to this server. Until you confirm your address
      from the link we e-mail you, the node accepts no studies.
    </MailedLinkCard>
  );
}
