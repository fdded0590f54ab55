import { useId, useRef } from 'react';
import { PROFILE_LIMITS, ZProfileInput, type TProfile, type TProfileValues } from '@contracts/schemas/profile';
import { CloseIcon } from '../../../components/icons';
import { Form, FormError } from '../../../components/form';
import { Modal } from '../../../components/modal';
import { TextField } from '../../../components/text-field';
import { useZodForm } from '../../../lib/use-zod-form';
import './profile-form-modal.css';

interface TRow {
  id: number;
  key: string;
  value: string;
}

let rowSeq = 0;
const newRow = (key = '', value = ''): TRow => ({ id: ++rowSeq, key, value });

interface TFormProps {
  /** The profile being edited, or null to create one. */
  editing: TProfile | null;
  saving: boolean;
  onSubmit: (values: TProfileValues) => void;
  onClose: () => void;
}

/** The create/edit modal (section 2). Mounted only while open, so each opening starts fresh. */
export function ProfileFormModal({ editing, saving, onSubmit, onClose }: TFormProps) {
  const uid = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  // The page sends it (its mutations outlive the modal): a valid form is handed over.
  const form = useZodForm({
    schema: ZProfileInput,
    initialValues: () => ({
      patientName: editing?.patientName ?? '',
      age: editing ? String(editing.age) : '',
      rows: Object.entries(editing?.additionalInfo ?? {}).map(([k, v]) => newRow(k, v)),
    }),
    toInput: ({ patientName, age, rows }) => ({
      patientName,
      age,
      additionalFields: rows.map((r) => ({ key: r.key, value: r.value })),
    }),
    onValid: onSubmit,
  });
  const { rows } = form.values;
  const setRows = (update: (rows: TRow[]) => TRow[]) => form.setValues((v) => ({ ...v, rows: update(v.rows) }));
  const setRow = (id: number, patch: Partial<TRow>) =>
    setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  return (
    <Modal
      open
      title={editing ? 'Edit Profile' : 'Create New Profile'}
      onClose={onClose}
      locked={saving}
      className="profile-modal"
      initialFocus={nameInput}
    >
      <Form onSubmit={form.submit}>
        <TextField
          id={`${uid}-name`}
          label="Patient Name"
          required
          autoComplete="off"
          inputRef={nameInput}
          value={form.values.patientName}
          error={form.fieldError('patientName')}
          onChange={(value) => form.setValue('patientName', value)}
        />
        <TextField
          id={`${uid}-age`}
          label="Age"
          required
          type="number"
          inputMode="numeric"
          min={PROFILE_LIMITS.ageMin}
          max={PROFILE_LIMITS.ageMax}
          step={1}
          value={form.values.age}
          error={form.fieldError('age')}
          onChange={(value) => form.setValue('age', value)}
        />
        <fieldset className="fieldset">
          <legend className="field-label">Additional Information</legend>
          {rows.length === 0 ? (
            <p className="muted">No additional fields. Add medical history, allergies, medications...</p>
          ) : null}
          {rows.map((row, i) => (
            <div className="kv-row" key={row.id}>
              <input
                className="input"
                aria-label={`Field name ${i + 1}`}
                placeholder="Field name (e.g. Allergies)"
                value={row.key}
                onChange={(e) => setRow(row.id, { key: e.target.value })}
              />
              <input
                className="input"
                aria-label={`Field description ${i + 1}`}
                placeholder="Description"
                value={row.value}
                onChange={(e) => setRow(row.id, { value: e.target.value })}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove field ${i + 1}`}
                onClick={() => setRows((rs) => rs.filter((r) => r.id !== row.id))}
              >
                <CloseIcon />
              </button>
            </div>
          ))}
          <button type="button" className="button button-link" onClick={() => setRows((rs) => [...rs, newRow()])}>
            + Add Field
          </button>
        </fieldset>
        <FormError message={form.otherError(['patientName', 'age'])} />
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? 'Saving...' : editing ? 'Update Profile' : 'Create Profile'}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
