import type { ReactNode } from 'react';
import { useToast } from './toast/use-toast';
import { errorText } from '../lib/error-text';

/** A mutation that mails a link and answers the message to show (tRPC's useMutation result). */
export interface TSendLink {
  isPending: boolean;
  isSuccess: boolean;
  mutate(
    input: undefined,
    handlers: { onSuccess: (res: { message: string }) => void; onError: (err: unknown) => void },
  ): void;
}

/**
 * A Settings card that proves a mailbox by a mailed link (the site admin's claim, the DICOM node
 * owner's confirmation): why, and one button that sends the link once per visit.
 */
export function MailedLinkCard({
  id,
  title,
  children,
  send,
}: {
  id: string;
  title: string;
  children: ReactNode;
  send: TSendLink;
}) {
  const toast = useToast();
  return (
    <section className="settings-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {title}
      </h2>
      <p className="muted">{children}</p>
      <button
        type="button"
        className="button"
        disabled={send.isPending || send.isSuccess}
        onClick={() =>
          send.mutate(undefined, {
            onSuccess: (res) => toast.success(res.message),
            onError: (err) => toast.error(errorText(err, 'Failed to send the confirmation e-mail')),
          })
        }
      >
        {send.isSuccess ? 'E-mail sent' : 'E-mail me a confirmation link'}
      </button>
    </section>
  );
}
