import { Component, type ErrorInfo, type ReactNode } from 'react';
import './error-boundary.css';

const RENDER_ERROR_KEY = 'cxr.debug.renderError';

function clearForcedError(): void {
  try {
    localStorage.removeItem(RENDER_ERROR_KEY);
  } catch {
    // storage disabled: nothing to clear
  }
}

interface TState {
  failed: boolean;
}

/** Section 8: an unhandled render error shows this screen instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, TState> {
  override state: TState = { failed: false };

  static getDerivedStateFromError(): TState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Only the browser console: the error text may quote data on screen, so it is not sent anywhere.
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="error-screen">
        <div className="error-card">
          <div className="error-icon" aria-hidden="true">
            !
          </div>
          <h1>Oops! Something went wrong</h1>
          <p>An unexpected error occurred. You can go back to the home screen or reload the page.</p>
          <div className="error-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                clearForcedError();
                window.location.assign('/');
              }}
            >
              Go to Home
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                clearForcedError();
                window.location.reload();
              }}
            >
              Reload Page
            </button>
          </div>
        </div>
      </main>
    );
  }
}

/**
 * Throws during render when the browser's localStorage holds `cxr.debug.renderError = '1'`. It
 * lets the e2e test reach the error screen through the real boundary; in production it is
 * harmless: only someone at that browser's devtools can set it, it affects only that tab, and
 * both buttons of the error screen (and logout, which clears storage) remove it.
 */
export function RenderErrorProbe() {
  let forced: boolean;
  try {
    forced = localStorage.getItem(RENDER_ERROR_KEY) === '1';
  } catch {
    forced = false;
  }
  if (forced) {
    // Left in place: React retries a failed render once, and the retry must fail too.
    throw new Error('Render error forced by cxr.debug.renderError');
  }
  return null;
}
