import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';

/**
 * Shown to an account whose address the operator listed (SITE_ADMIN_EMAILS) but which has not
 * proven it owns that mailbox yet (issue 23 N3): the role follows the mailed link, not the signup.
 */
export function ClaimSiteAdmin() {
  const toast = useToast();
  const request = trpc.site.requestAdminVerification.useMutation();
  return (
    <section className="settings-form" aria-labelledby="claim-site-admin-title">
      <h2 id="claim-site-admin-title" className="section-title">
        Site administration
      </h2>
      <p className="muted">
        Your address is listed for site administration. Confirm it from the link we e-mail you to get the Site tab.
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
