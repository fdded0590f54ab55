import { useEffect, useRef } from 'react';
import { WORKLIST_MESSAGES, type TWorklistItem } from '@contracts/schemas/worklist';
import type { TTeamRole } from '@contracts/schemas/team';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';

/**
 * A team study's reading (issue 32 §3): who is reading it, with Claim / Release / Mark reviewed
 * for those allowed (radiologists and admins claim and review; the reader or an admin releases).
 * The server decides; the buttons only hide what it would refuse.
 */
export function ReadingControl({ item, myId, role }: { item: TWorklistItem; myId: string; role: TTeamRole }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const box = useRef<HTMLDivElement>(null);
  // The row's reading as it was when a button was pressed: focus moves once it has changed.
  const refocus = useRef<string | null>(null);
  const readingKey = `${item.claim?.userId ?? ''}/${item.review?.userId ?? ''}`;
  const done = (text: string) => () => {
    toast.success(text);
    refocus.current = readingKey;
    void utils.worklist.list.invalidate();
  };
  const failed = (fallback: string) => (err: unknown) => {
    toast.error(errorText(err, fallback));
    void utils.worklist.list.invalidate();
  };
  const claim = trpc.worklist.claim.useMutation({
    onSuccess: done(WORKLIST_MESSAGES.claimed),
    onError: failed('Failed to claim'),
  });
  const release = trpc.worklist.release.useMutation({
    onSuccess: done(WORKLIST_MESSAGES.released),
    onError: failed('Failed to release'),
  });
  const review = trpc.worklist.review.useMutation({
    onSuccess: done(WORKLIST_MESSAGES.reviewed),
    onError: failed('Failed to mark reviewed'),
  });
  const reader = role === 'admin' || role === 'radiologist';
  const busy = claim.isPending || release.isPending || review.isPending;
  const mine = item.claim?.userId === myId;
  // The button pressed is gone once the row shows the change: focus goes to the row's next
  // control, not to <body>.
  useEffect(() => {
    if (refocus.current === null || refocus.current === readingKey || busy) return;
    refocus.current = null;
    box.current?.querySelector<HTMLElement>('button:not([disabled])')?.focus();
  }, [busy, readingKey]);
  return (
    <div className="reading-control" ref={box}>
      {item.claim ? (
        <span className="reading-by">{mine ? 'You are reading this' : WORKLIST_MESSAGES.heldBy(item.claim.name)}</span>
      ) : null}
      {item.review ? <span className="reading-reviewed">Reviewed by {item.review.name}</span> : null}
      <div className="reading-actions">
        {reader && !item.claim && !item.review ? (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => claim.mutate({ id: item.id })}
          >
            Claim
          </button>
        ) : null}
        {item.claim && (mine || role === 'admin') ? (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => release.mutate({ id: item.id })}
          >
            Release
          </button>
        ) : null}
        {reader && !item.review ? (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => review.mutate({ id: item.id, reviewed: true })}
          >
            Mark reviewed
          </button>
        ) : null}
      </div>
    </div>
  );
}
