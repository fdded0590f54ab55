import type { KeyboardEvent, ReactNode } from 'react';
import './tabs.css';

export interface TTabItem<K extends string> {
  key: K;
  label: string;
  /** Extra class on the tab button (e.g. 'tab-danger'). */
  className?: string;
}

interface TTabsProps<K extends string> {
  /** Prefix of the tab and panel ids; unique on the page. */
  idPrefix: string;
  /** The tablist's accessible name. */
  label: string;
  tabs: readonly TTabItem<K>[];
  value: K;
  onChange: (key: K) => void;
  className?: string;
  panelClassName?: string;
  /** The selected tab's panel. */
  children: ReactNode;
}

const tabId = (prefix: string, key: string) => `${prefix}-tab-${key}`;

/**
 * The WAI-ARIA tabs pattern: one tab stop (the selected tab), arrow keys, Home and End move
 * between tabs and select them, and the selected tab's panel is labelled by it.
 */
export function Tabs<K extends string>({
  idPrefix,
  label,
  tabs,
  value,
  onChange,
  className,
  panelClassName,
  children,
}: TTabsProps<K>) {
  const panelId = `${idPrefix}-panel`;
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[e.key];
    if (target === undefined) return;
    const next = tabs[(target + tabs.length) % tabs.length];
    if (!next) return;
    e.preventDefault();
    onChange(next.key);
    document.getElementById(tabId(idPrefix, next.key))?.focus();
  };
  return (
    <>
      <div className={`tabs ${className ?? ''}`} role="tablist" aria-label={label}>
        {tabs.map((t, i) => (
          <button
            key={t.key}
            id={tabId(idPrefix, t.key)}
            type="button"
            role="tab"
            className={`tab ${t.key === value ? 'active' : ''} ${t.className ?? ''}`}
            aria-selected={t.key === value}
            aria-controls={panelId}
            tabIndex={t.key === value ? 0 : -1}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className={panelClassName} role="tabpanel" id={panelId} aria-labelledby={tabId(idPrefix, value)}>
        {children}
      </div>
    </>
  );
}
