import { useEffect, useRef } from 'react';

/** Spec section 2: scroll to the bottom 150 ms after the messages change. */
export const AUTO_SCROLL_DELAY_MS = 150;

export function useAutoScroll<T extends HTMLElement>(deps: readonly unknown[]) {
  const endRef = useRef<T>(null);
  useEffect(() => {
    const t = window.setTimeout(
      () => endRef.current?.scrollIntoView({ block: 'end', behavior: 'smooth' }),
      AUTO_SCROLL_DELAY_MS,
    );
    return () => window.clearTimeout(t);
    // The caller's deps are the trigger; the ref itself never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return endRef;
}
