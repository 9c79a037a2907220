import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';

/** The longest name the server takes: it says so before the person is refused. */
export const MAX_ALBUM_NAME = 100;

/** Naming an album: a new one, or renaming. */
export function NameDialog({
  title,
  action,
  initial = '',
  busy,
  error,
  onSubmit,
  onClose,
}: {
  title: string;
  action: string;
  initial?: string;
  busy: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const trimmed = name.trim();
  const tooLong = [...trimmed].length > MAX_ALBUM_NAME;
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit(trimmed);
        }}
      >
        <Field
          label="Album name"
          value={name}
          placeholder="Summer holiday"
          onChange={(event) => setName(event.target.value)}
          autoFocus
          onFocus={(event) => event.target.select()}
          error={tooLong ? `An album name is at most ${MAX_ALBUM_NAME} letters.` : null}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy || trimmed === '' || tooLong || trimmed === initial}>
            {action}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
