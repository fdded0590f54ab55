import type { ReactNode } from 'react';
import { Link } from 'wouter';
import './public-page-shell.css';

interface TPublicPageShellProps {
  /** The header nav's accessible name. */
  navLabel: string;
  /** The header's links (log in, sign up, docs). */
  nav: ReactNode;
  /** Extra class on <main> beside docs-main. */
  mainClassName?: string;
  footer: ReactNode;
  children: ReactNode;
}

/** The frame of the pages anyone may read (/docs, /model-card): logo header, main, footer. */
export function PublicPageShell({ navLabel, nav, mainClassName, footer, children }: TPublicPageShellProps) {
  return (
    <div className="docs">
      <header className="docs-header">
        <Link href="/docs" className="docs-logo">
          <span className="logo-mark" aria-hidden="true">
            +
          </span>
          Chest Doctor AI
        </Link>
        <nav className="docs-nav" aria-label={navLabel}>
          {nav}
        </nav>
      </header>
      <main className={mainClassName ? `docs-main ${mainClassName}` : 'docs-main'}>{children}</main>
      <footer className="docs-footer">{footer}</footer>
    </div>
  );
}
