import { useEffect, useState } from 'react';
import { SSO_MESSAGES, type TLinkedIdentity } from '@contracts/schemas/sso';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { KeyTable, type TKeyColumn } from '../../../components/key-table';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { clearSsoParams, ssoErrorFrom } from '../../auth/lib/sso-notice';
import './api-keys-panel.css';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');
const hostOf = (issuer: string) => {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
};

const COLUMNS: TKeyColumn<TLinkedIdentity>[] = [
  { header: 'Sign-in service', cell: (i) => hostOf(i.issuer) },
  { header: 'Linked', cell: (i) => when(i.createdAt) },
  { header: 'Last used', cell: (i) => when(i.lastLoginAt) },
];

/**
 * Settings → Profile → Hospital sign-in: the IdP identities linked to this account. "Link" goes
 * through the IdP (full navigation) and comes back here with `?sso_linked=1` or `?sso_error=…`;
 * unlinking is refused by the server while it would leave no way to sign in.
 */
export function LinkedIdentitiesPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const list = trpc.sso.identities.useQuery();
  const unlink = trpc.sso.unlinkIdentity.useMutation();
  const [unlinking, setUnlinking] = useState<TLinkedIdentity | null>(null);

  useEffect(() => {
    const search = window.location.search;
    const error = ssoErrorFrom(search);
    if (error) toast.error(error);
    else if (new URLSearchParams(search).get('sso_linked') === '1') toast.success(SSO_MESSAGES.linked);
    if (error || search.includes('sso_linked')) clearSsoParams();
  }, [toast]);

  const data = list.data;
  if (!data || (!data.sso && data.identities.length === 0)) return null;
  const lastWayIn = !data.hasPassword && data.identities.length <= 1;

  const confirmUnlink = () => {
    if (!unlinking) return;
    unlink.mutate(
      { identityId: unlinking.id },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          setUnlinking(null);
          void refreshQuery(utils.sso.identities);
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to unlink'));
          setUnlinking(null);
        },
      },
    );
  };

  return (
    <section className="api-keys-panel linked-identities" aria-labelledby="linked-identities-title">
      <h2 id="linked-identities-title" className="section-title">
        Hospital sign-in
      </h2>
      {data.identities.length === 0 ? (
        <p className="muted">No hospital sign-in is linked to this account.</p>
      ) : (
        <KeyTable
          rows={data.identities}
          columns={COLUMNS}
          action={{
            text: 'Unlink',
            label: (i) => `Unlink hospital sign-in ${hostOf(i.issuer)}`,
            onClick: setUnlinking,
            disabled: lastWayIn,
            title: lastWayIn ? SSO_MESSAGES.lastSignIn : undefined,
          }}
        />
      )}
      {lastWayIn && data.identities.length > 0 ? <p className="muted">{SSO_MESSAGES.lastSignIn}</p> : null}
      {data.sso ? (
        <p>
          <a className="button button-secondary" href="/api/auth/oidc/login?link=1">
            Link {data.buttonText}
          </a>
        </p>
      ) : null}
      <ConfirmDialog
        open={unlinking !== null}
        title="Unlink hospital sign-in?"
        message="You will no longer be able to sign in here with this hospital account until you link it again."
        confirmLabel="Unlink"
        processing={unlink.isPending}
        onConfirm={confirmUnlink}
        onClose={() => setUnlinking(null)}
      />
    </section>
  );
}
