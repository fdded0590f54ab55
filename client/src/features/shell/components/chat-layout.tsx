import { Suspense, useState, type ReactNode } from 'react';
import { usePathname, useSearch } from 'wouter/use-browser-location';
import { FullPageSpinner, Spinner } from '../../../components/spinner';
import { MAIN_SCREEN_TOAST_MS } from '../../../components/toast/toast-store';
import { ToastDurationContext } from '../../../components/toast/use-toast';
import { errorText, isUnauthorized } from '../../../lib/error-text';
import { hasSignedOutMark } from '../../../lib/signed-out-mark';
import { trpc } from '../../../lib/trpc';
import { useFinishPendingLogout } from '../../settings/hooks/use-logout';
import { SpaceFromLink } from '../../teams/components/space-from-link';
import { SpaceNotice } from '../../teams/components/space-notice';
import { SkipToWorklist } from '../../worklist/components/skip-to-worklist';
import { Sidebar } from './sidebar';
import '../../../components/error-boundary.css';
import './chat-layout.css';

/**
 * The protected /chat layout (section 2): it needs a loaded user (`auth.me`). A 401 is handled
 * globally (lib/sign-out-on-401.ts): caches cleared, then /login with this location remembered.
 */
export function ChatLayout({ children }: { children: ReactNode }) {
  // A logout whose server call failed: the cookie is not a session here until it is retried.
  const [signingOut] = useState(hasSignedOutMark);
  useFinishPendingLogout(signingOut);
  const me = trpc.auth.me.useQuery(undefined, { staleTime: 5 * 60_000, enabled: !signingOut });
  const [menuOpen, setMenuOpen] = useState(false);
  const pathname = usePathname();
  const search = useSearch();
  // Close the mobile menu whenever the location changes (a chat or page was picked).
  const [lastLocation, setLastLocation] = useState(pathname + search);
  if (lastLocation !== pathname + search) {
    setLastLocation(pathname + search);
    setMenuOpen(false);
  }

  if (signingOut || me.isPending || (me.error && isUnauthorized(me.error)))
    return <FullPageSpinner label="Loading your account..." />;
  if (me.error) {
    return (
      <div className="full-page-center">
        <div className="error-card" role="alert">
          <p>{errorText(me.error, 'Could not load your account. Please try again.')}</p>
          <button type="button" className="button button-primary" onClick={() => void me.refetch()}>
            Try again
          </button>
        </div>
      </div>
    );
  }

  return (
    <ToastDurationContext.Provider value={MAIN_SCREEN_TOAST_MS}>
      <div className={`shell ${menuOpen ? 'shell-menu-open' : ''}`}>
        {pathname === '/chat/worklist' ? <SkipToWorklist /> : null}
        <header className="mobile-bar">
          <button
            type="button"
            className="icon-button menu-toggle"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="app-sidebar"
            onClick={() => setMenuOpen((v) => !v)}
          >
            <span className="menu-icon" aria-hidden="true" />
          </button>
          <span className="mobile-title">Chest Doctor AI</span>
        </header>
        <Sidebar id="app-sidebar" user={me.data.user} />
        {menuOpen ? <div className="sidebar-overlay" aria-hidden="true" onClick={() => setMenuOpen(false)} /> : null}
        <main className="shell-content" id="main-content">
          <SpaceFromLink />
          <SpaceNotice />
          <Suspense fallback={<Spinner />}>{children}</Suspense>
        </main>
      </div>
    </ToastDurationContext.Provider>
  );
}
