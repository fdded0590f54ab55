import type { ReactNode } from 'react';
import './key-table.css';

/** A column: its header and what each row shows in it. */
export interface TKeyColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

/** What a row's one button does (revoke, unlink): its text, its name for screen readers, and when it is off. */
export interface TKeyAction<T> {
  text: string;
  label: (row: T) => string;
  onClick: (row: T) => void;
  disabled?: boolean;
  /** Why it is disabled, on hover. */
  title?: string;
}

/**
 * A table of an account's credentials (API keys, linked hospital sign-ins): a row each, its last
 * cell the row's action button under a header only screen readers read.
 */
export function KeyTable<T extends { id: string }>({
  rows,
  columns,
  action,
}: {
  rows: readonly T[];
  columns: readonly TKeyColumn<T>[];
  action: TKeyAction<T>;
}) {
  return (
    <table className="key-table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col">
              {c.header}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            {columns.map((c) => (
              <td key={c.header}>{c.cell(row)}</td>
            ))}
            <td>
              <button
                type="button"
                className="button button-danger-outline"
                disabled={action.disabled}
                title={action.title}
                onClick={() => action.onClick(row)}
                aria-label={action.label(row)}
              >
                {action.text}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
