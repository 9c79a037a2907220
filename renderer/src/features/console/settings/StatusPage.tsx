import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { statusQuery } from '../../../api/queries.ts';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { formatDate } from '../../../ui/format.ts';
import { ago } from '../../../ui/timeWords.ts';
import { useBackups } from '../backups/queries.ts';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { LIBRARY_STATUS } from '../storage/libraryWords.ts';
import { useLibraries } from '../storage/queries.ts';
import { useAdminStatus } from './queries.ts';
import { uptimeWords } from './uptimeWords.ts';
import './settings.css';

/** Whether new files can be saved, as /status says it (see the banner for what to do). */
const ROOM = { ok: 'Can be saved', full: 'Disk full: waiting for space', read_only: 'Disk read-only: nothing can be saved' } as const;

/** The running server at a glance: version, how long it has run, where its data is, which storage is there. */
export function StatusPage() {
  const status = useAdminStatus();
  const libraries = useLibraries();
  const server = useQuery(statusQuery);
  const backups = useBackups();
  const online = libraries.data?.filter((l) => l.status === 'online').length ?? 0;
  return (
    <ConsoleLayout title="Status">
      {status.isPending && <Spinner label="Loading the server's status" />}
      {status.isError && <Notice tone="error">{status.error.message}</Notice>}
      {status.data && (
        <section className="card console-card" aria-label="Server">
          <dl className="facts facts-wide">
            <div>
              <dt>Name</dt>
              <dd>{server.data?.name ?? '…'}</dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd>Hearth {status.data.version}</dd>
            </div>
            <div>
              <dt>Running for</dt>
              <dd>{uptimeWords(status.data.uptime_seconds)}</dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{formatDate(status.data.started_at)}</dd>
            </div>
            <div>
              <dt>Data folder</dt>
              <dd className="mono">{status.data.data_dir}</dd>
            </div>
            <div>
              <dt>Storage</dt>
              <dd>{libraries.data ? `${online} of ${libraries.data.length} connected` : '…'}</dd>
            </div>
            <div>
              <dt>New files</dt>
              <dd>
                {server.data ? (
                  <span className={server.data.storage === 'ok' ? 'tag tag-ok' : 'tag tag-warn'}>{ROOM[server.data.storage]}</span>
                ) : (
                  '…'
                )}
              </dd>
            </div>
            <div>
              <dt>Last good backup</dt>
              <dd>{backups.data ? lastGoodBackup(backups.data.destinations) : '…'}</dd>
            </div>
          </dl>
          <p className="muted">
            A second copy of everything on another drive keeps the family's files safe if this PC's disk fails:{' '}
            <Link to="/console/backups">Backups</Link>.
          </p>
        </section>
      )}
      {libraries.data && (
        <section className="console-section" aria-labelledby="places-title">
          <h2 id="places-title">Storage places</h2>
          <ul className="card invite-list">
            {libraries.data.map((l) => (
              <li key={l.id} className="device-row">
                <strong>{l.name}</strong>
                <span className={l.status === 'online' ? 'tag tag-ok' : 'tag tag-warn'}>{LIBRARY_STATUS[l.status] ?? l.status}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </ConsoleLayout>
  );
}

/** When the newest backup that succeeded anywhere finished ("3 days ago, to USB disk"), or that there is none. */
function lastGoodBackup(destinations: readonly { name: string; last_success_at: number | null }[]): string {
  if (destinations.length === 0) return 'None: no backup is set up';
  const best = destinations.reduce((a, b) => ((b.last_success_at ?? 0) > (a.last_success_at ?? 0) ? b : a));
  if (best.last_success_at === null) return 'None yet';
  const when = ago(best.last_success_at);
  return `${when[0]!.toUpperCase()}${when.slice(1)}, to ${best.name}`;
}
