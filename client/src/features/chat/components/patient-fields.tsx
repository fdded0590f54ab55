import { useId } from 'react';
import { PROFILE_LIMITS } from '@contracts/schemas/profile';
import { newRow, removeRowError, type TFieldRow } from '../lib/patient-fields';
import { useToast } from '../../../components/toast/use-toast';
import './patient-fields.css';

/**
 * Patient Information: key/value rows. Required rows (Patient Name, Age) have a fixed name and
 * their remove button only explains why it cannot; other rows can be renamed and removed.
 */
export function PatientFields({
  rows,
  onChange,
  profileName,
  disabled,
}: {
  rows: TFieldRow[];
  onChange: (rows: TFieldRow[]) => void;
  profileName: string | null;
  disabled?: boolean;
}) {
  const toast = useToast();
  const baseId = useId();
  const update = (id: string, patch: Partial<Pick<TFieldRow, 'key' | 'value'>>) =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const remove = (row: TFieldRow) => {
    const refusal = removeRowError(row);
    if (refusal) {
      toast.error(refusal);
      return;
    }
    onChange(rows.filter((r) => r.id !== row.id));
  };

  return (
    <fieldset className="chat-fields" disabled={disabled}>
      <legend className="chat-section-title">
        Patient Information
        {profileName ? (
          <span className="chat-badge" title="Selected profile">
            {profileName}
          </span>
        ) : null}
      </legend>
      <ul className="chat-field-rows">
        {rows.map((row, i) => {
          const valueId = `${baseId}-v-${row.id}`;
          const label = row.key.trim() || `Field ${i + 1}`;
          return (
            <li key={row.id} className="chat-field-row">
              {row.required ? (
                <label htmlFor={valueId} className="chat-field-key is-fixed">
                  {row.key} <span aria-hidden="true">*</span>
                </label>
              ) : (
                <input
                  className="input chat-field-key"
                  aria-label={`Field ${i + 1} name`}
                  placeholder="Field name"
                  value={row.key}
                  maxLength={PROFILE_LIMITS.keyMax}
                  onChange={(e) => update(row.id, { key: e.target.value })}
                />
              )}
              <input
                id={valueId}
                className="input chat-field-value"
                aria-label={row.required ? undefined : `${label} value`}
                aria-required={row.required || undefined}
                placeholder={row.required ? `Enter ${row.key.toLowerCase()}` : 'Value'}
                inputMode={row.key === 'Age' ? 'numeric' : undefined}
                value={row.value}
                maxLength={PROFILE_LIMITS.valueMax}
                onChange={(e) => update(row.id, { value: e.target.value })}
              />
              <button
                type="button"
                className="icon-button icon-button-outline"
                aria-label={`Remove ${label}`}
                aria-disabled={row.required || undefined}
                title={row.required ? 'Required fields cannot be removed' : `Remove ${label}`}
                onClick={() => remove(row)}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button-link" onClick={() => onChange([...rows, newRow()])}>
        <span aria-hidden="true">+ </span>Add Field
      </button>
    </fieldset>
  );
}
