import { READING_SHORTCUTS, type TReadingAction } from '../hooks/use-reading-shortcuts';

/** The shortcuts that work now, on screen beside the buttons they press (issue 49 item 5). */
export function ReadingShortcuts({ offered }: { offered: TReadingAction[] }) {
  const shown = READING_SHORTCUTS.filter((s) => offered.includes(s.action));
  if (!shown.length) return null;
  return (
    <p className="report-shortcuts muted" data-testid="reading-shortcuts">
      Keyboard:{' '}
      {shown.map((s, i) => (
        <span key={s.action}>
          {i ? ' · ' : ''}
          <kbd>{s.keys}</kbd> {s.label.toLowerCase()}
        </span>
      ))}
    </p>
  );
}
