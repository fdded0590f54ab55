import { useEffect, useRef } from 'react';

export type TReadingAction = 'sign' | 'signAndNext' | 'next';

/**
 * The reading shortcuts (issue 49 item 5), all with Alt+Shift so typing in the report (or the
 * chat) never fires one, and read from the physical key (`code`) because Alt+Shift changes the
 * character on some layouts. Listed on screen by ReadingShortcuts, on the buttons as aria-keyshortcuts.
 */
export const READING_SHORTCUTS: { action: TReadingAction; keys: string; aria: string; code: string; label: string }[] =
  [
    { action: 'sign', keys: 'Alt+Shift+S', aria: 'Alt+Shift+S', code: 'KeyS', label: 'Sign' },
    { action: 'signAndNext', keys: 'Alt+Shift+Enter', aria: 'Alt+Shift+Enter', code: 'Enter', label: 'Sign and next' },
    { action: 'next', keys: 'Alt+Shift+N', aria: 'Alt+Shift+N', code: 'KeyN', label: 'Next study' },
  ];

export const shortcutOf = (action: TReadingAction) => READING_SHORTCUTS.find((s) => s.action === action)!;

/**
 * Calls `handlers[action]` for its shortcut anywhere on the page while mounted; an action
 * without a handler (not offered now: "Next study" on a draft) does nothing. The latest handlers
 * are read at key time, so a re-render never leaves a stale one.
 */
export function useReadingShortcuts(handlers: Partial<Record<TReadingAction, () => void>>): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey || e.repeat) return;
      const hit = READING_SHORTCUTS.find((s) => s.code === e.code);
      const run = hit ? latest.current[hit.action] : undefined;
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
