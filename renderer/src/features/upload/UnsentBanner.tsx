import { useId, useState } from 'react';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { plural } from '../../ui/format.ts';
import { manifest } from './manifest.ts';
import { uploadQueue } from './queue.ts';
import { useUploads } from './useUploads.ts';

/** After a reload: which files did not arrive, and a way to continue them. */
export function UnsentBanner() {
  const state = useSession();
  const { items } = useUploads();
  const inputId = useId();
  const [dismissed, setDismissed] = useState(false);
  const account = state.kind === 'signed-in' ? state.user.id : null;
  if (!account || dismissed || items.length > 0) return null;
  const unsent = manifest.forAccount(account);
  if (unsent.length === 0) return null;
  return (
    <div className="notice unsent" role="status">
      <p>
        <strong>{plural(unsent.length, 'file')} not sent: choose {unsent.length === 1 ? 'it' : 'them'} again.</strong>{' '}
        <span className="muted">
          {unsent
            .slice(0, 3)
            .map((u) => u.name)
            .join(', ')}
          {unsent.length > 3 ? '…' : ''}. Uploading continues where it stopped.
        </span>
      </p>
      <input
        id={inputId}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = event.target.files;
          if (files?.length) void uploadQueue.add([...files], null);
          event.target.value = '';
        }}
      />
      <div className="row">
        <Button variant="primary" icon="upload" onClick={() => (document.getElementById(inputId) as HTMLInputElement).click()}>
          Choose files again
        </Button>
        <Button
          variant="quiet"
          onClick={() => {
            manifest.forget(account);
            setDismissed(true);
          }}
        >
          Forget them
        </Button>
      </div>
    </div>
  );
}
