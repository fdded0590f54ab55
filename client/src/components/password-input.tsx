import { useState, type ComponentProps } from 'react';
import './password-input.css';

interface TPasswordInputProps extends Omit<ComponentProps<'input'>, 'type'> {
  id: string;
}

/** A password field with its show/hide toggle (a real button, reachable by keyboard). */
export function PasswordInput({ id, className, ...rest }: TPasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-input">
      <input id={id} type={visible ? 'text' : 'password'} className={`input ${className ?? ''}`} {...rest} />
      <button
        type="button"
        className="password-toggle"
        aria-controls={id}
        aria-pressed={visible}
        aria-label={visible ? 'Hide password' : 'Show password'}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
