import './spinner.css';
export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

export function FullPageSpinner({ label }: { label?: string }) {
  return (
    <div className="full-page-center">
      <Spinner label={label} />
    </div>
  );
}
