import { useSyncExternalStore } from 'react';

/**
 * The space the signed-in user works in (issue 32): their personal space (null) or one of their
 * teams. Remembered per browser (localStorage, cleared on sign-out with everything else); the
 * team's name is kept beside its id so a removed member can be told which team they lost.
 */
export interface TSpace {
  teamId: string;
  name: string;
}

const KEY = 'cxr.space';
const listeners = new Set<() => void>();
let cached: { raw: string | null; space: TSpace | null } | null = null;

function read(): TSpace | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    return cached?.space ?? null;
  }
  if (cached && cached.raw === raw) return cached.space;
  let space: TSpace | null = null;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<TSpace>) : null;
    if (parsed && typeof parsed.teamId === 'string' && typeof parsed.name === 'string')
      space = { teamId: parsed.teamId, name: parsed.name };
  } catch {
    space = null;
  }
  cached = { raw, space };
  return space;
}

export function setSpace(space: TSpace | null): void {
  try {
    if (space) localStorage.setItem(KEY, JSON.stringify(space));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the choice lasts until the tab reloads (the store below still updates).
    cached = { raw: space ? JSON.stringify(space) : null, space };
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab switched spaces: follow it, so two tabs never write to different spaces unseen.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The current space; re-renders when it changes (here or in another tab). */
export function useCurrentSpace(): TSpace | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

/** The current team's id for a list or upload call: undefined in the personal space. */
export function useSpaceTeam(): string | undefined {
  return useCurrentSpace()?.teamId ?? undefined;
}
