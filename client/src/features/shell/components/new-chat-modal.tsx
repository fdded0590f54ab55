import { navigate } from 'wouter/use-browser-location';
import { Modal } from '../../../components/modal';
import { useSpaceTeam } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import { startNewChat } from '../../../lib/current-chat';
import './new-chat-modal.css';

/** 'Select Profile for New Chat': picking a profile opens the analysis form for it. */
export function NewChatModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const team = useSpaceTeam();
  const profiles = trpc.profile.list.useQuery({ limit: 200, team }, { enabled: open });
  const items = profiles.data?.items ?? [];
  return (
    <Modal open={open} title="Select Profile for New Chat" onClose={onClose} className="new-chat-modal">
      {profiles.isPending ? (
        <p className="muted" role="status">
          Loading profiles...
        </p>
      ) : profiles.isError ? (
        <p className="field-error" role="alert">
          Could not load profiles.
        </p>
      ) : items.length === 0 ? (
        <div className="empty-state empty-state-small">
          <p>No profiles found</p>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              onClose();
              navigate('/chat/profiles', { state: { createProfile: true } });
            }}
          >
            Create Profile
          </button>
        </div>
      ) : (
        <ul className="profile-pick-list">
          {items.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="profile-pick"
                onClick={() => {
                  onClose();
                  startNewChat(p);
                }}
              >
                <span className="avatar" aria-hidden="true">
                  {p.patientName.trim().charAt(0).toUpperCase()}
                </span>
                <span className="profile-pick-text">
                  <span className="profile-pick-name">{p.patientName}</span>
                  <span className="muted">Age: {p.age}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
