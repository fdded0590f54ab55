import type { MouseEvent } from 'react';
import './skip-to-worklist.css';

/**
 * "Skip to worklist" (issue 41): the first stop of Tab on the worklist page, shown when focused,
 * past the sidebar to the first row's first control (48 presses before), or to the heading when
 * the list is empty.
 */
export function SkipToWorklist() {
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const first = document.querySelector<HTMLElement>(
      '[data-testid="worklist-row"] button:not([disabled]), [data-testid="worklist-row"] a[href]',
    );
    (first ?? document.getElementById('worklist-heading'))?.focus();
  };
  return (
    <a className="skip-link" href="#worklist-heading" onClick={skip}>
      Skip to worklist
    </a>
  );
}
