import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { plural, formatBytes } from '../../../ui/format.ts';
import { consoleKeys } from '../keys.ts';
import { driveDescription, driveName, driveSize, filesystemWords } from './driveWords.ts';
import { useDriveDetail, type Capability, type Drive, type DriveContents, type FormatResult } from './queries.ts';

type FileSystem = Capability['filesystems'][number]['name'];
const FILE_SYSTEMS: { value: FileSystem; label: string; hint: string }[] = [
  { value: 'ext4', label: 'For Hearth on this PC (ext4)', hint: 'The sturdiest choice for a drive that stays with Hearth.' },
  { value: 'exfat', label: 'Also for other computers (exFAT)', hint: 'Windows and Mac computers can read it too.' },
];

/** The kinds this PC can make are offered; the others are named with what they need, never offered. */
function fileSystemChoices(capability: Capability) {
  const can = (value: FileSystem) => capability.filesystems.find((f) => f.name === value);
  return {
    offered: FILE_SYSTEMS.filter((fs) => can(fs.value)?.available === true),
    missing: FILE_SYSTEMS.flatMap((fs) => {
      const state = can(fs.value);
      return state && !state.available ? [{ ...fs, reason: state.reason ?? '' }] : [];
    }),
  };
}

/** Why this drive may not be erased, or null. The server refuses these too; the dialog says so first. */
function refusalOf(drive: Drive, libraryName: string | null, capability: Capability): string | null {
  if (drive.system) return "This drive holds this PC's system or Hearth's own data. Hearth never erases it.";
  if (drive.library_id !== null)
    return `Hearth keeps files on this drive (${libraryName ?? 'a library'}). Remove it under "Where files are kept" before erasing it.`;
  if (!capability.available) return `This PC does not let Hearth erase drives. ${capability.reason ?? ''}`.trim();
  if (fileSystemChoices(capability).offered.length === 0) {
    return `This PC has none of the tools that prepare a drive. ${capability.filesystems.map((f) => f.reason ?? '').join(' ')}`.trim();
  }
  return null;
}

/**
 * Erasing a drive, safely: what the drive is and what is on it, in danger colours; the exact
 * phrase `FORMAT <device>` typed before the button wakes up; then progress, and what was there
 * before against what is there now.
 */
export function EraseDialog({
  drive,
  libraryName,
  capability,
  onClose,
}: {
  drive: Drive;
  libraryName: string | null;
  capability: Capability;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const detail = useDriveDetail(drive.id);
  const labelId = useId();
  const choices = fileSystemChoices(capability);
  const [filesystem, setFilesystem] = useState<FileSystem>(choices.offered[0]?.value ?? 'ext4');
  const [label, setLabel] = useState('');
  const [typed, setTyped] = useState('');
  const phrase = `FORMAT ${drive.device}`;
  const refusal = refusalOf(detail.data ?? drive, libraryName, capability);
  // The contents seen when the owner pressed the button: "before" in the result.
  const erase = useMutation({
    mutationFn: (_before: DriveContents | null) =>
      data(
        api.POST('/admin/drives/{id}/format', {
          params: { path: { id: drive.id } },
          body: { filesystem, confirmation: typed, ...(label.trim() ? { label: label.trim() } : {}) },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.drives });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.libraries });
    },
  });
  const name = driveName(drive);
  const matches = typed === phrase;

  if (erase.isSuccess) {
    return (
      <Dialog title={`${name} was erased`} onClose={onClose} wide>
        <ErasedResult result={erase.data} before={erase.variables ?? null} />
        <div className="dialog-actions">
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title={`Erase ${name}?`} onClose={() => !erase.isPending && onClose()} wide>
      <div className="danger-zone">
        <p className="danger-lead">Erasing deletes everything on this drive. It cannot be undone.</p>
        <DriveFacts drive={drive} />
        <h3>What is on it now</h3>
        {detail.isPending && <Spinner label="Looking at what is on the drive" />}
        {detail.isError && (
          <Notice tone="error">Hearth could not look at this drive ({detail.error.message}). It may still hold files.</Notice>
        )}
        {detail.data && <ContentsSummary contents={detail.data.contents} />}
      </div>

      {refusal ? (
        <RefusedErase refusal={refusal} onClose={onClose} />
      ) : (
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (matches) erase.mutate(detail.data?.contents ?? null);
          }}
        >
          <FileSystemChoice choices={choices} filesystem={filesystem} disabled={erase.isPending} onChange={setFilesystem} />
          <div className="field">
            <label htmlFor={labelId}>New label (optional)</label>
            <input
              id={labelId}
              value={label}
              maxLength={filesystem === 'exfat' ? 11 : 16}
              disabled={erase.isPending}
              onChange={(e) => setLabel(e.target.value)}
            />
          </div>
          <PhraseField phrase={phrase} typed={typed} disabled={erase.isPending} onChange={setTyped} />
          {erase.isPending && (
            <div className="erasing" role="status">
              <div className="progress progress-busy" aria-hidden="true">
                <span />
              </div>
              <p>Erasing {name}… Do not unplug it. This can take a minute.</p>
            </div>
          )}
          {erase.isError && <Notice tone="error">{erase.error.message}</Notice>}
          <div className="dialog-actions">
            <Button onClick={onClose} disabled={erase.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={!matches || erase.isPending}>
              {erase.isPending ? 'Erasing…' : 'Erase this drive'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** What the drive is, so the owner recognises it before erasing. */
function DriveFacts({ drive }: { drive: Drive }) {
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Drive</dt>
          <dd>{driveDescription(drive)}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{driveSize(drive.size)}</dd>
        </div>
        <div>
          <dt>Label</dt>
          <dd>{drive.label ?? 'No label'}</dd>
        </div>
      </dl>
      <details className="drive-details">
        <summary>Technical details</summary>
        <dl className="facts">
          <div>
            <dt>File system</dt>
            <dd>{filesystemWords(drive)}</dd>
          </div>
          <div>
            <dt>Device</dt>
            <dd className="mono">{drive.device}</dd>
          </div>
        </dl>
      </details>
    </>
  );
}

function RefusedErase({ refusal, onClose }: { refusal: string; onClose: () => void }) {
  return (
    <>
      <div id="erase-refusal">
        <Notice tone="error">{refusal}</Notice>
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose}>Close</Button>
        <Button variant="danger" disabled aria-describedby="erase-refusal">
          Erase this drive
        </Button>
      </div>
    </>
  );
}

function FileSystemChoice({
  choices,
  filesystem,
  disabled,
  onChange,
}: {
  choices: ReturnType<typeof fileSystemChoices>;
  filesystem: FileSystem;
  disabled: boolean;
  onChange: (filesystem: FileSystem) => void;
}) {
  const fsName = useId();
  return (
    <fieldset className="choice" disabled={disabled}>
      <legend>Prepare it</legend>
      {choices.offered.map((fs) => (
        <label key={fs.value}>
          <input type="radio" name={fsName} checked={filesystem === fs.value} onChange={() => onChange(fs.value)} /> {fs.label}
          <span className="hint">{fs.hint}</span>
        </label>
      ))}
      {choices.missing.map((fs) => (
        <p key={fs.value} className="muted">
          Not offered: {fs.label}. {fs.reason}
        </p>
      ))}
    </fieldset>
  );
}

/** The exact phrase typed before the button wakes up, told as it is typed. */
function PhraseField({
  phrase,
  typed,
  disabled,
  onChange,
}: {
  phrase: string;
  typed: string;
  disabled: boolean;
  onChange: (typed: string) => void;
}) {
  const phraseId = useId();
  const phraseHint = useId();
  const matches = typed === phrase;
  return (
    <div className="field">
      <label htmlFor={phraseId}>
        To erase it, type <span className="mono phrase">{phrase}</span>
      </label>
      <input
        id={phraseId}
        className="mono"
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        value={typed}
        disabled={disabled}
        aria-describedby={phraseHint}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={phraseHint} className="hint" aria-live="polite">
        {typed === '' ? 'Exactly as shown, capitals and spaces too.' : matches ? 'That matches.' : 'Not the same yet.'}
      </span>
    </div>
  );
}

/** Never "empty" for a drive Hearth could not read: that is the mistake this dialog exists to prevent. */
function ContentsSummary({ contents }: { contents: DriveContents | null }) {
  if (contents === null) {
    return (
      <Notice tone="error">
        Hearth could not read this drive, so it cannot tell what is on it. It may hold files: check it on another computer if you are not
        sure.
      </Notice>
    );
  }
  const atLeast = contents.complete ? '' : 'at least ';
  const looksEmpty = contents.complete && contents.files === 0 && contents.top_level.length === 0;
  const folders = contents.top_level.filter((e) => e.kind === 'folder');
  const files = contents.top_level.filter((e) => e.kind === 'file');
  return (
    <div className="contents">
      <p>
        {formatBytes(contents.used)} in use · {atLeast}
        {plural(contents.files, 'file')}, of which {atLeast}
        {plural(contents.photos, 'photo or video', 'photos and videos')}
      </p>
      {looksEmpty ? (
        <p className="muted">No files or folders were found on it.</p>
      ) : (
        <>
          {folders.length > 0 && (
            <>
              <p className="muted">Folders at the top:</p>
              <ul className="top-level" aria-label="Folders at the top of the drive">
                {folders.map((f) => (
                  <li key={f.name}>{f.name}</li>
                ))}
              </ul>
            </>
          )}
          {files.length > 0 && (
            <>
              <p className="muted">Files at the top:</p>
              <ul className="top-level" aria-label="Files at the top of the drive">
                {files.map((f) => (
                  <li key={f.name}>{f.name}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {!contents.complete && <p className="muted">Counting stopped after a while: there are at least this many.</p>}
    </div>
  );
}

function ErasedResult({ result, before }: { result: FormatResult; before: DriveContents | null }) {
  const was = result.previous;
  const now = result.drive;
  return (
    <div className="erase-result" role="status">
      <div className="before-after">
        <section aria-labelledby="before-title">
          <h3 id="before-title">Before</h3>
          <dl className="facts">
            <div>
              <dt>File system</dt>
              <dd>{was.filesystem ?? 'None'}</dd>
            </div>
            <div>
              <dt>Label</dt>
              <dd>{was.label ?? 'No label'}</dd>
            </div>
            <div>
              <dt>On it</dt>
              <dd>{before === null ? 'Could not be read' : `${formatBytes(before.used)}, ${plural(before.files, 'file')}`}</dd>
            </div>
          </dl>
        </section>
        <section aria-labelledby="now-title">
          <h3 id="now-title">Now</h3>
          <dl className="facts">
            <div>
              <dt>File system</dt>
              <dd>{now.filesystem ?? 'None'}</dd>
            </div>
            <div>
              <dt>Label</dt>
              <dd>{now.label ?? 'No label'}</dd>
            </div>
            <div>
              <dt>On it</dt>
              <dd>Nothing: it is ready to use</dd>
            </div>
          </dl>
        </section>
      </div>
      <p className="muted">To keep family files on it, choose "Keep files here" on the drive.</p>
    </div>
  );
}
