import { useSpaceGuard } from '../hooks/use-space-guard';
import './space-notice.css';

/** The message shown above the page when the user was sent back to their personal space. */
export function SpaceNotice() {
  const { notice, dismiss } = useSpaceGuard();
  if (!notice) return null;
  return (
    <div className="space-notice" role="alert">
      <p>{notice}</p>
      <button type="button" className="button button-secondary" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
