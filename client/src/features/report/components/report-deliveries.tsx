import { trpc } from '../../../lib/trpc';
import { deliveryState, deliveryTarget } from '../lib/delivery-text';

/** How often the report is read again while a delivery is still on its way. */
const PENDING_POLL_MS = 3_000;

/**
 * Where a signed report went (issue 41): "Sent to" with each destination's state in words. It
 * reads the panel's own report query (the same cache entry) and polls it only while a delivery
 * is pending, so the panel shows "delivered" or "failed" without a reload and stops after.
 * Nothing when no destination is configured (or while a draft).
 */
export function ReportDeliveries({ analysisId }: { analysisId: string }) {
  const report = trpc.report.get.useQuery(
    { analysisId },
    {
      refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_POLL_MS : false),
    },
  );
  const deliveries = report.data?.deliveries ?? [];
  if (!deliveries.length) return null;
  return (
    <section className="report-deliveries" aria-labelledby="report-deliveries-heading" data-testid="report-deliveries">
      <h3 id="report-deliveries-heading">Sent to</h3>
      <ul>
        {deliveries.map((d, index) => (
          <li key={`${d.destination}-${d.carries}-${index}`} className={`report-delivery-${d.status}`}>
            {deliveryTarget(d)}: {deliveryState(d)}
          </li>
        ))}
      </ul>
    </section>
  );
}
