import { Link, useLocation } from 'react-router';
import { useBackups } from './queries.ts';

const BACKUPS_PAGE = '/console/backups';

/**
 * The console's header line about backups, as the server decides it (GET /admin/backup's health,
 * kept current by backup.health events): a warning while backups are overdue, on every page; a
 * calm offer while files have no backup at all, on every page but Backups (which says so itself).
 */
export function BackupNotice() {
  const health = useBackups().data?.health;
  const onBackupsPage = useLocation().pathname === BACKUPS_PAGE;
  if (!health || health.headline === null) return null;
  if (health.state === 'overdue') {
    return (
      <div className="notice backup-notice backup-notice-overdue" role="status">
        <strong>{health.headline}.</strong> {health.reason ?? 'Check the backup folder on the Backups page.'}
        {!onBackupsPage && (
          <>
            {' '}
            <Link to={BACKUPS_PAGE}>Open Backups</Link>
          </>
        )}
      </div>
    );
  }
  if (health.state === 'no_backup_yet' && !onBackupsPage) {
    return (
      <div className="notice backup-notice" role="status">
        <strong>{health.headline}.</strong> They are on this PC only: if its disk dies, they are gone.{' '}
        <Link to={BACKUPS_PAGE}>Set up backups</Link>
      </div>
    );
  }
  return null;
}
