import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';

/**
 * Shown to the account the DICOM node sends its studies to (DICOM_OWNER_EMAIL) until its owner has
 * followed the link mailed to that address (issue 36, S11): until then the node takes no studies.
 * The first link is mailed when the account is made; this sends another.
 */
export function ConfirmDicomOwner() {
  const toast = useToast();
  const request = trpc.dicomOwner.requestConfirmation.useMutation();
  return (
    <section className="settings-form" aria-labelledby="confirm-dicom-owner-title">
      <h2 id="confirm-dicom-owner-title" className="section-title">
        DICOM node
      </h2>
      <p className="muted">
        This account receives the studies the hospital&apos;s PACS sends to this server. Until you confirm your address
        from the link we e-mail you, the node accepts no studies.
      </p>
      <button
        type="button"
        className="button"
        disabled={request.isPending || request.isSuccess}
        onClick={() =>
          request.mutate(undefined, {
            onSuccess: (res) => toast.success(res.message),
            onError: (err) => toast.error(errorText(err, 'Failed to send the confirmation e-mail')),
          })
        }
      >
        {request.isSuccess ? 'E-mail sent' : 'E-mail me a confirmation link'}
      </button>
    </section>
  );
}
