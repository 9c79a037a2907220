import { useId, useState, type FormEvent } from 'react';
import { Button } from './Button.tsx';
import { focusWhenShown } from './focusWhenShown.ts';
import './field.css';

/** Renaming something in its place in a list: the field, Save and Cancel, and the server's reason when it refuses. */
export function InlineRename({
  label,
  initial,
  maxLength,
  busy,
  error,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  maxLength?: number;
  busy: boolean;
  error: string | null;
  onSave: (name: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial);
  const id = useId();
  return (
    <form
      className="inline-rename"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (name.trim()) onSave(name.trim());
      }}
    >
      <label htmlFor={id}>{label}</label>
      <div className="inline-rename-row">
        <input
          id={id}
          value={name}
          maxLength={maxLength}
          autoFocus
          ref={focusWhenShown}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        />
        <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
          Save
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
      {error && (
        <span id={`${id}-error`} className="hint field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
