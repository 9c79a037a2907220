import { Button } from '../../../ui/Button.tsx';
import { driveMaker, driveName, driveState, driveSubtitle, filesystemWords } from './driveWords.ts';
import type { Drive, DrivesAnswer } from './queries.ts';
import './storage.css';

/** Why a drive cannot become a library (or be pooled), or null when it can. */
export function mountRefusal(drive: Drive, libraryName: string | null): string | null {
  if (drive.system) return "It holds this PC's system or Hearth's own data.";
  if (libraryName !== null) return `Hearth already uses it for ${libraryName}.`;
  if (drive.filesystem === null) return 'It has no file system yet: erase it to prepare it.';
  return null;
}

const CONNECTIONS: Record<string, string> = { usb: 'USB', sata: 'SATA', ata: 'ATA', nvme: 'NVMe', scsi: 'SCSI', mmc: 'Memory card' };

/**
 * One drive in a parent's words: what it is ("USB drive, 64 GB, SanDisk"), what it holds and
 * whether Hearth uses it; the device, file system and mount points a click away. The drive the
 * PC runs from offers nothing to do: it is never erased, so no Erase is shown.
 */
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
  const maker = driveMaker(drive);
  const subtitle = driveSubtitle(drive);
  return (
    <li className={drive.system ? 'card console-card drive-card drive-system' : 'card console-card drive-card'} aria-labelledby={titleId}>
      <div className="account-head">
        <h3 id={titleId}>{name}</h3>
        {libraryName !== null && <span className="tag tag-ok">Used by Hearth</span>}
      </div>
      {subtitle && <p className="muted drive-description">{subtitle}</p>}
      <p className="drive-state">{driveState(drive, libraryName)}</p>
      {!drive.system && (
        <dl className="facts facts-inline">
          <div>
            <dt>Used by Hearth</dt>
            <dd>{libraryName ?? 'No'}</dd>
          </div>
          <div>
            <dt>Ready for files</dt>
            <dd>{drive.filesystem !== null ? 'Yes' : 'Not yet'}</dd>
          </div>
        </dl>
      )}
      <details className="drive-details">
        <summary>Technical details</summary>
        <dl className="facts">
          <div>
            <dt>Device</dt>
            <dd className="mono">{drive.device}</dd>
          </div>
          <div>
            <dt>File system</dt>
            <dd>{filesystemWords(drive)}</dd>
          </div>
          <div>
            <dt>Label</dt>
            <dd>{drive.label ?? 'No label'}</dd>
          </div>
          <div>
            <dt>Opened at</dt>
            {drive.mountpoints.length > 0 ? <dd className="mono">{drive.mountpoints.join(', ')}</dd> : <dd>Not opened</dd>}
          </div>
          {maker && (
            <div>
              <dt>Model</dt>
              <dd>{maker}</dd>
            </div>
          )}
          {drive.transport && (
            <div>
              <dt>Connected by</dt>
              <dd>{CONNECTIONS[drive.transport.toLowerCase()] ?? drive.transport}</dd>
            </div>
          )}
        </dl>
      </details>
      {!drive.system && (
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
          <Button variant={drive.library_id !== null ? 'default' : 'danger'} onClick={onErase} aria-label={`Erase ${name}`}>
            Erase…
          </Button>
        </div>
      )}
    </li>
  );
}
