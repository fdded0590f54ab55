import { useEffect, useState } from 'react';
import { useHistoryState } from 'wouter/use-browser-location';
import type { TProfile, TProfileValues } from '@contracts/schemas/profile';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Spinner } from '../../../components/spinner';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { useSpaceTeam } from '../../../lib/current-space';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { ProfileCard } from '../components/profile-card';
import { ProfileFormModal } from '../components/profile-form-modal';
import { TimelineModal } from '../components/timeline-modal';
import { saveErrorText, useCreateProfile } from '../hooks/use-create-profile';
import './profiles-page.css';

/** Section 9: the edit modal opens 50 ms after Edit (prefilled). */
const EDIT_OPEN_DELAY_MS = 50;

type TModal = { mode: 'create' } | { mode: 'edit'; profile: TProfile } | null;

export function ProfilesPage() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const team = useSpaceTeam();
  const profiles = trpc.profile.list.useQuery({ limit: 200, team });
  const create = useCreateProfile();
  // Errors on the mutation, not on mutate(): a 401 takes the user to /login at once, and
  // mutate()'s callbacks do not run once the page has unmounted.
  const update = trpc.profile.update.useMutation({
    onError: (err) => toast.error(saveErrorText(err, 'Failed to update profile')),
  });
  const remove = trpc.profile.delete.useMutation();
  const [modal, setModal] = useState<TModal>(null);
  const [deleting, setDeleting] = useState<TProfile | null>(null);
  const [timelineOf, setTimelineOf] = useState<TProfile | null>(null);
  const navState = useHistoryState<{ createProfile?: boolean } | null>();

  // Arriving from the New Chat modal's 'Create Profile' opens the create form.
  useEffect(() => {
    if (!navState?.createProfile) return;
    history.replaceState(null, '', location.pathname);
    setModal({ mode: 'create' });
  }, [navState]);

  useEffect(() => {
    // Section 8: a load failure is only logged (the 401 case is handled globally).
    if (profiles.error) console.warn('profiles failed to load');
  }, [profiles.error]);

  const openEdit = (profile: TProfile) => setTimeout(() => setModal({ mode: 'edit', profile }), EDIT_OPEN_DELAY_MS);

  const save = (values: TProfileValues) => {
    if (modal?.mode === 'edit') {
      update.mutate(
        { profileId: modal.profile.id, profile: values },
        {
          onSuccess: () => {
            toast.success('Profile updated successfully');
            setModal(null);
            void refreshQuery(utils.profile.list);
          },
        },
      );
    } else {
      create.create(values, () => setModal(null));
    }
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(
      { profileId: deleting.id },
      {
        onSuccess: () => {
          toast.success('Profile deleted successfully');
          setDeleting(null);
          void refreshQuery(utils.profile.list);
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to delete profile'));
          setDeleting(null);
        },
      },
    );
  };

  const items = profiles.data?.items ?? [];
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Patient Profiles</h1>
          <p className="muted">Reusable patient details to start new analyses quickly.</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => setModal({ mode: 'create' })}>
          Create Profile
        </button>
      </header>
      {profiles.isPending ? (
        <Spinner label="Loading profiles..." />
      ) : profiles.isError ? (
        // Not the empty state: that would tell the clinician their profiles are gone.
        <div className="empty-state" role="alert">
          <h2>Could not load profiles</h2>
          <p className="muted">Your profiles are still saved. Check your connection and try again.</p>
          <button type="button" className="button button-secondary" onClick={() => void profiles.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <div className="empty-state">
          <div className="empty-icon" aria-hidden="true">
            +
          </div>
          <h2>No Profiles Yet</h2>
          <p className="muted">Create a patient profile to reuse its details in new analyses.</p>
          <button type="button" className="button button-primary" onClick={() => setModal({ mode: 'create' })}>
            Create Your First Profile
          </button>
        </div>
      ) : (
        <ul className="profile-grid">
          {items.map((p) => (
            <ProfileCard
              key={p.id}
              profile={p}
              onEdit={() => openEdit(p)}
              onDelete={() => setDeleting(p)}
              onTimeline={() => setTimelineOf(p)}
            />
          ))}
        </ul>
      )}
      {modal ? (
        <ProfileFormModal
          key={modal.mode === 'edit' ? modal.profile.id : 'new'}
          editing={modal.mode === 'edit' ? modal.profile : null}
          saving={create.pending || update.isPending}
          onSubmit={save}
          onClose={() => setModal(null)}
        />
      ) : null}
      {timelineOf ? <TimelineModal profile={timelineOf} onClose={() => setTimelineOf(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        type="danger"
        title="Delete Profile?"
        message={`The profile of ${deleting?.patientName ?? ''} will be permanently deleted. Chats started from it are kept.`}
        confirmLabel="Delete"
        processing={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
