import { useState } from 'react';
import { isCalled, type TFindingCall } from '@contracts/finding-call';
import { FEEDBACK_NOTE_MAX, type TFeedbackEntry } from '@contracts/schemas/feedback';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import './finding-feedback.css';

type TCall = TFindingCall;

interface TFindingFeedbackProps {
  chatId: string;
  finding: string;
  display: string;
  call: TCall;
  entry: TFeedbackEntry | undefined;
}

/**
 * Agree / disagree with one finding (issue 17). A disagreement asks what the clinician reads
 * instead (defaulting to the opposite of the model's call) and takes an optional note; saving
 * again edits the same entry.
 */
export function FindingFeedback({ chatId, finding, display, call, entry }: TFindingFeedbackProps) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const save = trpc.feedback.save.useMutation();
  const [open, setOpen] = useState(false);
  const [reading, setReading] = useState<'present' | 'absent'>(
    entry?.reading ?? (isCalled(call) ? 'absent' : 'present'),
  );
  const [note, setNote] = useState(entry?.note ?? '');

  const send = (verdict: 'agree' | 'disagree') => {
    save.mutate(
      {
        chatId,
        finding,
        verdict,
        ...(verdict === 'disagree' ? { reading } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      {
        onSuccess: () => {
          setOpen(false);
          toast.success('Feedback saved');
          void refreshQuery(utils.feedback.list, { chatId });
        },
        onError: (err) => toast.error(errorText(err, 'Could not save the feedback')),
      },
    );
  };

  const idBase = `feedback-${finding}`;
  return (
    <div className="chat-finding-feedback" data-testid={`feedback-${finding}`}>
      {entry ? (
        <span className="muted small" data-testid={`feedback-state-${finding}`}>
          You {entry.verdict === 'agree' ? 'agree' : 'disagree'}: {entry.reading}
          {entry.note ? ` (${entry.note})` : ''}
        </span>
      ) : null}
      <span className="chat-finding-feedback-actions">
        <button
          type="button"
          className="button button-secondary small"
          disabled={save.isPending}
          onClick={() => send('agree')}
          aria-label={`Agree with ${display}`}
        >
          Agree
        </button>
        <button
          type="button"
          className="button button-secondary small"
          disabled={save.isPending}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-label={`Disagree with ${display}`}
        >
          Disagree
        </button>
      </span>
      {open ? (
        <div className="chat-finding-feedback-form">
          <label htmlFor={`${idBase}-reading`}>I read it as</label>
          <select
            id={`${idBase}-reading`}
            value={reading}
            onChange={(e) => setReading(e.target.value === 'present' ? 'present' : 'absent')}
          >
            <option value="present">present</option>
            <option value="absent">absent</option>
          </select>
          <label htmlFor={`${idBase}-note`}>Note (optional)</label>
          <input
            id={`${idBase}-note`}
            className="input"
            maxLength={FEEDBACK_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <button
            type="button"
            className="button button-primary small"
            disabled={save.isPending}
            onClick={() => send('disagree')}
          >
            Save disagreement
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The caller's feedback on the chat's newest analysis, by finding label. */
export function useFindingFeedback(chatId: string | undefined): Map<string, TFeedbackEntry> {
  const list = trpc.feedback.list.useQuery({ chatId: chatId ?? '' }, { enabled: !!chatId });
  return new Map((list.data?.feedback ?? []).map((e) => [e.finding, e]));
}
