import { skipToken, useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useToast } from '../../../components/toast/use-toast';
import { errorInfo, isUnauthorized } from '../../../lib/error-text';
import { HttpError } from '../../../lib/http-error';
import { useSpaceTeam } from '../../../lib/current-space';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { openChat } from '../../../lib/current-chat';
import { clearLocalChat } from '../../../lib/local-chat';
import { isTerminalStage, type TAnalysisStage, type TTerminalStage } from '@contracts/analysis-stage.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import { ANALYSIS_TOASTS } from '../lib/analysis-stages';
import type { TPatientInfo } from '../lib/patient-fields';
import { uploadAnalysis } from '../lib/upload-analysis';

export type TSubmission =
  | { phase: 'idle' }
  | { phase: 'uploading' }
  | { phase: 'running'; chatId: string; analysisId: string; stage: TAnalysisStage };

/**
 * Upload → live stages → the chat. Success: toast, history refetched, the chat selected (the
 * form unmounts, so image and fields are back to defaults next time). Refusal or failure: back
 * to the form, values kept, with the server's reason or the spec's fallback.
 */
export function useAnalysisSubmission() {
  const [state, setState] = useState<TSubmission>({ phase: 'idle' });
  const toast = useToast();
  const utils = trpc.useUtils();
  // A mutation, so that a 401 takes the app's one path (the MutationCache's sign-out).
  const team = useSpaceTeam();
  const upload = useMutation({
    mutationFn: (v: { file: File; patient: TPatientInfo; profileId: string | null }) =>
      uploadAnalysis(v.file, v.patient, v.profileId, team),
  });

  const finish = useCallback(
    async (chatId: string, stage: TTerminalStage, message: string | undefined) => {
      await utils.history.list.invalidate();
      if (stage === 'done') {
        setState({ phase: 'idle' });
        toast.success(ANALYSIS_TOASTS.completed);
        openChat(chatId);
        return;
      }
      // Refused or failed: the terminal event carries the reason (e.g. "not a chest radiograph").
      setState({ phase: 'idle' });
      toast.error(message || ANALYSIS_MESSAGES.failed);
    },
    [toast, utils],
  );

  // A stream that ended in an error. A 401 the stream reported as such (the server's tRPC error
  // event) has already taken the app's one sign-out path. An EventSource refused with an HTTP
  // status (a 401 from a proxy or gateway in front of the server) reports no status at all, which
  // reads as a network error: ask the server whether the session still holds. Its 401 takes the
  // sign-out path (section 4: cleared, then /login) and no failure toast is due.
  const reportStreamError = useCallback(
    async (err: unknown) => {
      if (isUnauthorized(err)) return;
      if (errorInfo(err).network) {
        const signedOut = await utils.client.auth.me.query().then(
          () => false,
          (e: unknown) => isUnauthorized(e),
        );
        if (signedOut) return;
      }
      toast.error(ANALYSIS_MESSAGES.failed);
    },
    [toast, utils],
  );

  const running = state.phase === 'running' ? state : null;
  trpc.analysis.onProgress.useSubscription(running ? { analysisId: running.analysisId } : skipToken, {
    onData: (ev) => {
      if (!running || ev.analysisId !== running.analysisId) return;
      if (isTerminalStage(ev.stage)) {
        void finish(running.chatId, ev.stage, ev.message);
      } else {
        setState({ ...running, stage: ev.stage });
      }
    },
    onError: (err) => {
      setState({ phase: 'idle' });
      void reportStreamError(err);
    },
  });

  const { mutate } = upload;
  const submit = useCallback(
    (file: File, patient: TPatientInfo, profileId: string | null) => {
      setState({ phase: 'uploading' });
      mutate(
        { file, patient, profileId },
        {
          onSuccess: (ids) => {
            setState({ phase: 'running', ...ids, stage: 'queued' });
            // The server's chat now exists: it replaces the local one in the sidebar.
            clearLocalChat();
            void refreshQuery(utils.history.list);
          },
          onError: (err) => {
            setState({ phase: 'idle' });
            // A 401 has already signed the user out: no toast on the way to /login.
            if (!isUnauthorized(err)) toast.error(err instanceof HttpError ? err.message : ANALYSIS_MESSAGES.failed);
          },
        },
      );
    },
    [toast, mutate, utils],
  );

  return { state, submit, busy: state.phase !== 'idle' };
}
