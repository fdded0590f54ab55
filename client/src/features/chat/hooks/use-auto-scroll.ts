import { useEffect, useRef } from 'react';

/** Spec section 2: scroll to the bottom 150 ms after the messages change. */
export const AUTO_SCROLL_DELAY_MS = 150;

/**
 * `enabled` false keeps the page where it is: the reading layout opens on the film and the report
 * (issue 49 item 5) and follows the thread only once the reader asks something.
 */
export function useAutoScroll<T extends HTMLElement>(deps: readonly unknown[], enabled = true) {
  const endRef = useRef<T>(null);
  useEffect(() => {
    if (!enabled) return;
    const t = window.setTimeout(
      () => endRef.current?.scrollIntoView({ block: 'end', behavior: 'smooth' }),
      AUTO_SCROLL_DELAY_MS,
    );
    return () => window.clearTimeout(t);
    // The caller's deps are the trigger; the ref itself never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, enabled]);
  return endRef;
}
