import type { FormHTMLAttributes, ReactNode } from 'react';

interface TFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> {
  /** Called on submit (button or Enter); the page never reloads. */
  onSubmit: () => void;
  children: ReactNode;
}

/**
 * The app's form: the zod schemas validate (with the spec's messages), so the browser's own
 * validation bubbles are off, and submitting never navigates.
 */
export function Form({ onSubmit, className, children, ...rest }: TFormProps) {
  return (
    <form
      {...rest}
      className={`form ${className ?? ''}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A failing rule no field shows (a form-level message under the fields); nothing when null. */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}
