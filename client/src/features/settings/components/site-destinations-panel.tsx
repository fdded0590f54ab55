import type { TDestination, TDestinationKind } from '@contracts/schemas/site-destinations';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { localTime } from '../../../lib/local-time';
import { trpc } from '../../../lib/trpc';
import { StowForwardingPanel } from './stow-forwarding-panel';

/** The last test in words, never colour alone: 'Passed: … (Ivy, 29 Nov 2026, 07:35 CET, 120 ms)'. */
function LastTest({ d }: { d: TDestination }) {
  const t = d.lastTest;
  if (!t) return <p className="muted small">Never tested.</p>;
  return (
    <p className={t.ok ? 'site-test-ok' : 'site-test-failed'} data-testid={`last-test-${d.kind}`}>
      <strong>Last test {t.ok ? 'passed' : 'failed'}:</strong> {t.detail} ({t.by ? `${t.by}, ` : ''}
      {localTime(t.at)}, {t.ms} ms)
    </p>
  );
}

/**
 * Settings → Site, Destinations (issue 49 item 7): where signed reports go (the RIS over HL7) and
 * results and report SRs go (the PACS over DICOM), each with "Send test" and its last result, so
 * an IT lead checks them before a real signature; then which STOW-RS senders are forwarded.
 * The addresses are the server's config: this page shows and tests them, never changes them.
 */
export function SiteDestinationsPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const state = trpc.site.destinations.useQuery();
  const test = trpc.site.testDestination.useMutation({
    onSuccess: (data) => utils.site.destinations.setData(undefined, data),
    onError: (err) => toast.error(errorText(err, 'Could not run the test')),
  });
  if (!state.data) return <Spinner />;
  const running = (kind: TDestinationKind) => test.isPending && test.variables?.destination === kind;
  return (
    <section aria-labelledby="site-destinations-title" data-testid="site-destinations">
      <h2 id="site-destinations-title" className="section-title">
        Destinations
      </h2>
      <p className="muted small">
        Where a signed report goes. Send a test before go-live: the RIS gets an HL7 test ORU for the test patient
        &quot;TEST^DO NOT FILE&quot;; the PACS gets a C-ECHO from this node&apos;s AE title{' '}
        <code>{state.data.callingAe}</code>, which it must know.
      </p>
      <ul className="site-destinations">
        {state.data.destinations.map((d) => (
          <li key={d.kind} className="site-propose" data-testid={`destination-${d.kind}`}>
            <h3 className="site-destination-title">{d.label}</h3>
            {d.address ? (
              <p>
                <code>{d.address}</code> <span className="muted small">({d.variable})</span>
              </p>
            ) : (
              <p className="muted">
                Not configured: set <code>{d.variable}</code> in the server&apos;s environment.
              </p>
            )}
            <LastTest d={d} />
            <div>
              <button
                type="button"
                className="button button-secondary"
                disabled={!d.address || test.isPending}
                aria-label={`Send test to the ${d.label}`}
                onClick={() => test.mutate({ destination: d.kind })}
              >
                {running(d.kind) ? 'Sending...' : 'Send test'}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <StowForwardingPanel
        list={state.data.stowForwarding}
        pacsConfigured={state.data.destinations.some((d) => d.kind === 'dicom' && d.address !== null)}
      />
    </section>
  );
}
