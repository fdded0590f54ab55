import { NETWORK_ERROR } from '../../../lib/error-text';
import { HttpError } from '../../../lib/http-error';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import type { TPatientInfo } from './patient-fields';

export interface TUploadAnswer {
  chatId: string;
  analysisId: string;
}

/**
 * Sends the X-ray and patient information as the spec's multipart (`image`, `profile` JSON text)
 * and returns at once with the ids; progress then arrives over the analysis.onProgress
 * subscription. The session cookie authenticates it (same origin). Failures throw `HttpError`
 * with a message safe to show (the server's, or the spec's fallback).
 */
export async function uploadAnalysis(
  file: File,
  patient: TPatientInfo,
  profileId: string | null,
  teamId?: string,
): Promise<TUploadAnswer> {
  const body = new FormData();
  body.append('profile', JSON.stringify(patient));
  if (profileId) body.append('profile_id', profileId);
  // The current space (issue 32): absent, the study stays in the personal space.
  if (teamId) body.append('team_id', teamId);
  // The file goes last: the server reads the fields before streaming the image.
  body.append('image', file, file.name);
  let res: Response;
  try {
    res = await fetch('/api/chat/upload', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new HttpError(NETWORK_ERROR, 0);
  }
  const json = (await res.json().catch(() => null)) as {
    success?: boolean;
    message?: string;
    detail?: string;
    data?: { chat_id?: string; analysis_id?: string };
  } | null;
  const chatId = json?.data?.chat_id;
  const analysisId = json?.data?.analysis_id;
  if (!res.ok || !json?.success || !chatId || !analysisId) {
    throw new HttpError(json?.message || json?.detail || ANALYSIS_MESSAGES.failed, res.status);
  }
  return { chatId, analysisId };
}
