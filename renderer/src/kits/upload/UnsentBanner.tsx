import { useId, useMemo, useState } from 'react';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { plural } from '../../ui/format.ts';
import { middleOut } from '../../ui/middleOut.ts';
import { manifest, type Unsent } from './manifest.ts';
import { uploadQueue } from './queue.ts';
import { useLeftBehind } from './useUploads.ts';

/** Refusals told on this page, by account: taken from the manifest on the first look, so told once. */
const refusalsTold = new Map<string, Unsent[]>();

function refusalsOf(account: string): Unsent[] {
  if (!refusalsTold.has(account)) refusalsTold.set(account, manifest.takeRefused(account));
  return refusalsTold.get(account)!;
}

/**
 * After a reload: which files did not arrive. Those that can continue are offered again (a
 * batch that tells its own way to finish, a phone backup, is left to it); those the server
 * refused for good are reported once, with the reason, and not on the next page load.
 */
export function UnsentBanner() {
  const state = useSession();
  const account = state.kind === 'signed-in' ? state.user.id : null;
  const left = useLeftBehind(account);
  const resumable = useMemo(() => left.filter((u) => u.refused === undefined && u.batch === undefined), [left]);
  const [, setTold] = useState(0);
  if (!account) return null;
  const refused = refusalsOf(account);
  if (refused.length === 0 && resumable.length === 0) return null;
  return (
    <>
      {refused.length > 0 && (
        <RefusedNotice
          refused={refused}
          onDismiss={() => {
            refusalsTold.set(account, []);
            setTold((v) => v + 1);
          }}
        />
      )}
      {resumable.length > 0 && (
        <ResumableNotice unsent={resumable} onForget={() => uploadQueue.forgetUnsent(...resumable.map((u) => u.id))} />
      )}
    </>
  );
}

/** Files the browser had not finished sending: chosen again, they continue where they stopped. */
function ResumableNotice({ unsent, onForget }: { unsent: Unsent[]; onForget: () => void }) {
  const inputId = useId();
  return (
    <div className="notice unsent" role="status">
      <p>
        <strong>
          {plural(unsent.length, 'file')} not sent: choose {unsent.length === 1 ? 'it' : 'them'} again.
        </strong>{' '}
        <span className="muted">
          <NameList entries={unsent} />. Uploading continues where it stopped.
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
        {/* "Forget them" read as if the files were deleted: nothing is, only the reminder goes. */}
        <Button variant="quiet" onClick={onForget}>
          {unsent.length === 1 ? 'Don’t send it' : 'Don’t send them'}
        </Button>
      </div>
      <p className="muted">Nothing is deleted: {unsent.length === 1 ? 'it stays' : 'they stay'} on this device, and this note goes away.</p>
    </div>
  );
}

/** What the server would not take, and why; nothing to retry, only to read. */
function RefusedNotice({ refused, onDismiss }: { refused: Unsent[]; onDismiss: () => void }) {
  const byReason = new Map<string, Unsent[]>();
  for (const u of refused) byReason.set(u.refused!, [...(byReason.get(u.refused!) ?? []), u]);
  return (
    <div className="notice unsent unsent-refused" role="status">
      <p>
        <strong>
          {refused.length === 1
            ? `“${middleOut(shownName(refused[0]!), 40)}” was not uploaded.`
            : `${plural(refused.length, 'file')} were not uploaded.`}
        </strong>
      </p>
      {[...byReason].map(([reason, entries]) => (
        <p key={reason}>
          {refused.length > 1 && (
            <span className="muted">
              <NameList entries={entries} />:{' '}
            </span>
          )}
          {reason}
        </p>
      ))}
      <div className="row">
        <Button variant="primary" onClick={onDismiss}>
          OK
        </Button>
      </div>
    </div>
  );
}

function NameList({ entries }: { entries: Unsent[] }) {
  return (
    <>
      {entries.slice(0, 3).map((u, index) => (
        <span key={u.id} title={shownName(u)}>
          {index > 0 && ', '}
          {middleOut(shownName(u), 40)}
        </span>
      ))}
      {entries.length > 3 ? ` and ${(entries.length - 3).toLocaleString()} more` : ''}
    </>
  );
}

function shownName(u: Unsent): string {
  return u.as ?? u.name;
}
