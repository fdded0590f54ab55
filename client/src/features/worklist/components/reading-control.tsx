import { useEffect, useRef } from 'react';
import { WORKLIST_MESSAGES, type TWorklistStudyState } from '@contracts/schemas/worklist';
import type { TTeamRole } from '@contracts/schemas/team';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import './reading-control.css';

/**
 * A team study's reading (issue 32 §3, issue 41), on the worklist and in the viewer: who is
 * reading it, with Claim / Release / Mark reviewed for those allowed (radiologists and admins
 * claim; the reader or an admin releases; only the reader holding the claim marks it reviewed).
 * The server decides; the buttons only hide what it would refuse. `onActed`: a change was made
 * (the worklist then keeps focus off <body> when the row leaves the list).
 */
export function ReadingControl({
  item,
  myId,
  role,
  onActed,
}: {
  item: TWorklistStudyState;
  myId: string;
  role: TTeamRole;
  onActed?: () => void;
}) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const box = useRef<HTMLDivElement>(null);
  // The row's reading as it was when a button was pressed: focus moves once it has changed.
  const refocus = useRef<string | null>(null);
  const readingKey = `${item.claim?.userId ?? ''}/${item.review?.userId ?? ''}`;
  const refresh = () => Promise.all([refreshQuery(utils.worklist.list), refreshQuery(utils.worklist.study)]);
  const done = (text: string) => () => {
    toast.success(text);
    refocus.current = readingKey;
    onActed?.();
    void refresh();
  };
  const failed = (fallback: string) => (err: unknown) => {
    toast.error(errorText(err, fallback));
    void refresh();
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
  // The button pressed is gone once the reading shows the change: focus goes to the next control
  // (after Claim: Release, then Mark reviewed), or to the line saying who reviewed it, never to <body>.
  useEffect(() => {
    if (refocus.current === null || refocus.current === readingKey || busy) return;
    refocus.current = null;
    const next =
      box.current?.querySelector<HTMLElement>('button:not([disabled])') ??
      box.current?.querySelector<HTMLElement>('[data-reading-status]');
    next?.focus();
  }, [busy, readingKey]);
  return (
    <div className="reading-control" ref={box}>
      {item.claim ? (
        <span className="reading-by" tabIndex={-1} data-reading-status>
          {mine ? 'You are reading this' : WORKLIST_MESSAGES.heldBy(item.claim.name)}
        </span>
      ) : null}
      {item.review ? (
        <span className="reading-reviewed" tabIndex={-1} data-reading-status>
          Reviewed by {item.review.name}
        </span>
      ) : null}
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
        {reader && mine && !item.review ? (
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
