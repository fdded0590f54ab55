/**
 * Section 4: "Logout always clears the local session … even if the server call fails". The
 * session cookie is HttpOnly, so when the server cannot be reached the browser keeps a cookie
 * that script can neither read nor delete, and the next visit would be signed in again.
 *
 * Chosen remedy: this mark in localStorage (per browser profile and origin, survives restarts).
 * While it is set, the /chat layout does not treat the cookie as a session: it first retries
 * the server logout (which revokes the session and expires the cookie) and goes to /login
 * whatever the answer. Signing in again removes the mark. A non-HttpOnly companion cookie was
 * the alternative, but it would need server changes to every session check and would let
 * script-readable state decide authentication; here the server stays the authority and the
 * mark can only ever make the browser more signed out. It holds no account data.
 */
const KEY = 'cxr.signed-out';

export function markSignedOut(): void {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Storage disabled: nothing to keep; the server session then ends at its expiry.
  }
}

export function hasSignedOutMark(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function clearSignedOutMark(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // See markSignedOut.
  }
}
