import type { InputHTMLAttributes, Ref } from 'react';
import { describedBy, Field } from './field';
import { PasswordInput } from './password-input';

type TInputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'children' | 'required'
>;

interface TTextFieldProps extends TInputAttributes {
  id: string;
  label: string;
  value: string;
  /** Omitted for a read-only field. */
  onChange?: (value: string) => void;
  hint?: string | undefined;
  error?: string | null;
  /** Marks the label with '*' and the input as required for assistive technology. */
  required?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled input with its hint and error wired to it (aria-describedby, aria-invalid), the
 * markup every form repeated. `type="password"` gives the input with its show/hide toggle.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  required,
  value,
  onChange,
  inputRef,
  type = 'text',
  className,
  ...rest
}: TTextFieldProps) {
  const input = {
    ...rest,
    id,
    ref: inputRef,
    value,
    'aria-invalid': Boolean(error),
    'aria-required': required || undefined,
    'aria-describedby': describedBy(id, { hint: Boolean(hint), error: Boolean(error) }),
    onChange: onChange ? (e: { target: HTMLInputElement }) => onChange(e.target.value) : undefined,
  };
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required}>
      {type === 'password' ? (
        <PasswordInput className={className} {...input} />
      ) : (
        <input type={type} className={`input ${className ?? ''}`} {...input} />
      )}
    </Field>
  );
}
