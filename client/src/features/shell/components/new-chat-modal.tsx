import { useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { Modal } from '../../../components/modal';
import { useSpaceTeam } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import { startNewChat } from '../../../lib/current-chat';
import { ProfileFormModal } from '../../profiles/components/profile-form-modal';
import { useCreateProfile } from '../../profiles/hooks/use-create-profile';
import './new-chat-modal.css';

/**
 * 'Select Profile for New Chat': picking a profile opens the analysis form for it. "New patient"
 * (issue 41 part 6) swaps in the profile form (the same form, schema and save as Patient
 * Profiles) and goes on to the analysis form for the profile it creates.
 */
export function NewChatModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const team = useSpaceTeam();
  const profiles = trpc.profile.list.useQuery({ limit: 200, team }, { enabled: open });
  const items = profiles.data?.items ?? [];
  const [creating, setCreating] = useState(false);
  const newPatient = useCreateProfile();
  const close = () => {
    setCreating(false);
    onClose();
  };
  if (open && creating)
    return (
      <ProfileFormModal
        editing={null}
        saving={newPatient.pending}
        onSubmit={(values) =>
          newPatient.create(values, (profile) => {
            close();
            startNewChat(profile);
          })
        }
        onClose={() => setCreating(false)}
      />
    );
  return (
    <Modal open={open} title="Select Profile for New Chat" onClose={close} className="new-chat-modal">
      <div className="new-chat-actions">
        <button type="button" className="button button-secondary" onClick={() => setCreating(true)}>
          + New patient
        </button>
      </div>
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
              close();
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
                  close();
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
