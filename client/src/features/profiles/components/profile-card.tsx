import type { TProfile } from '@contracts/schemas/profile';
import './profile-card.css';

interface TCardProps {
  profile: TProfile;
  onEdit: () => void;
  onDelete: () => void;
  /** Opens the patient's timeline (issue 18). */
  onTimeline: () => void;
}

export function ProfileCard({ profile, onEdit, onDelete, onTimeline }: TCardProps) {
  const extra = Object.keys(profile.additionalInfo).length;
  return (
    <li className="profile-card">
      <div className="profile-card-head">
        <span className="avatar avatar-large" aria-hidden="true">
          {profile.patientName.trim().charAt(0).toUpperCase()}
        </span>
        <div className="profile-card-text">
          <h2 className="profile-card-name">{profile.patientName}</h2>
          <p className="muted">Age: {profile.age} years old</p>
        </div>
      </div>
      <p className="profile-card-extra">
        {extra} additional {extra === 1 ? 'field' : 'fields'}
      </p>
      <div className="profile-card-actions">
        <button
          type="button"
          className="button button-secondary"
          aria-label={`Timeline of ${profile.patientName}`}
          onClick={onTimeline}
        >
          Timeline
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-label={`Edit ${profile.patientName}`}
          onClick={onEdit}
        >
          Edit
        </button>
        <button
          type="button"
          className="button button-danger-outline"
          aria-label={`Delete ${profile.patientName}`}
          onClick={onDelete}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
