import { useId, type InputHTMLAttributes } from 'react';
import { focusWhenShown } from './focusWhenShown.ts';
import './field.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  error?: string | null;
}

/** A labelled input: the label is what people and tests find it by. */
export function Field({ label, hint, error, id, autoFocus, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        autoFocus={autoFocus}
        ref={autoFocus ? focusWhenShown : undefined}
        {...input}
      />
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="hint field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
