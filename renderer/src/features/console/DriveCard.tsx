import { Button } from '../../ui/Button.tsx';
import { driveSize } from './words.ts';
import type { Drive, DrivesAnswer } from './queries.ts';

export function driveName(drive: Drive): string {
  return drive.model ?? drive.label ?? `Drive ${drive.device}`;
}

/** Why a drive cannot become a library (or be pooled), or null when it can. */
export function mountRefusal(drive: Drive, libraryName: string | null): string | null {
  if (drive.system) return "It holds this PC's system or Hearth's own data.";
  if (libraryName !== null) return `Hearth already uses it for ${libraryName}.`;
  if (drive.filesystem === null) return 'It has no file system yet: erase it first to prepare it.';
  return null;
}

/** One drive: what it is, what is on it, who uses it; mount, choose for a pool, erase. */
export function DriveCard({
  drive,
  libraryName,
  capabilities,
  selected,
  onSelect,
  onMount,
  onErase,
}: {
  drive: Drive;
  libraryName: string | null;
  capabilities: DrivesAnswer['capabilities'];
  selected: boolean;
  onSelect: (on: boolean) => void;
  onMount: () => void;
  onErase: () => void;
}) {
  const name = driveName(drive);
  const refusal = mountRefusal(drive, libraryName);
  const titleId = `drive-${drive.id}`;
  return (
    <li className="card console-card" aria-labelledby={titleId}>
      <div className="account-head">
        <h3 id={titleId}>{name}</h3>
        <span className="tag">{driveSize(drive.size)}</span>
        {drive.system && <span className="tag tag-warn">System drive</span>}
        {drive.removable && <span className="tag">Removable</span>}
      </div>
      <dl className="facts">
        <div>
          <dt>Device</dt>
          <dd className="mono">{drive.device}</dd>
        </div>
        <div>
          <dt>File system</dt>
          <dd>{drive.filesystem ?? 'None found'}</dd>
        </div>
        <div>
          <dt>Label</dt>
          <dd>{drive.label ?? 'No label'}</dd>
        </div>
        <div>
          <dt>Opened at</dt>
          {drive.mountpoints.length > 0 ? <dd className="mono">{drive.mountpoints.join(', ')}</dd> : <dd>Not opened</dd>}
        </div>
        <div>
          <dt>Used by Hearth</dt>
          <dd>{libraryName ?? 'No'}</dd>
        </div>
      </dl>
      {drive.system && <p className="muted">This drive holds the PC's system or Hearth's own data, so Hearth never erases it.</p>}
      <div className="row">
        {refusal === null && capabilities.mount.available && (
          <Button onClick={onMount} aria-label={`Keep files on ${name}`}>
            Keep files here
          </Button>
        )}
        {refusal === null && capabilities.pool.available && (
          <label className="check">
            <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} /> Choose to combine
          </label>
        )}
        {/* Red only where erasing is possible; elsewhere the dialog explains why not. */}
        <Button variant={drive.system || drive.library_id !== null ? 'default' : 'danger'} onClick={onErase} aria-label={`Erase ${name}`}>
          Erase…
        </Button>
      </div>
    </li>
  );
}
