import { useSyncExternalStore } from 'react';
import type { TProfile } from '@contracts/schemas/profile';

/**
 * Section 3: picking a profile for a new chat creates a local chat titled 'Chat with {patient
 * name}' with no messages, listed in the sidebar before anything is uploaded. It lives only in
 * this tab's memory (never in storage or the URL: it carries a patient name); the upload creates
 * the real chat, which then takes its place. One at a time: a new pick replaces it.
 */
export interface TLocalChat {
  title: string;
  patientName: string;
  profile: TProfile;
}

let current: TLocalChat | null = null;
const listeners = new Set<() => void>();

function emit(next: TLocalChat | null): void {
  current = next;
  for (const l of listeners) l();
}

export function localChatTitle(patientName: string): string {
  return `Chat with ${patientName}`;
}

export function setLocalChat(profile: TProfile): void {
  emit({ title: localChatTitle(profile.patientName), patientName: profile.patientName, profile });
}

/** The upload created the server's chat, or the session ended. */
export function clearLocalChat(): void {
  if (current) emit(null);
}

export function useLocalChat(): TLocalChat | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
