import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../../api/queries.ts';
import { ProgressBar } from '../../ui/Notice.tsx';
import { formatBytes } from '../../ui/format.ts';

/** Used and limit of this account's storage: the account's own answer, refreshed by quota events. */
export function QuotaBar() {
  const me = useQuery(meQuery);
  if (!me.data) return null;
  const { used, limit } = me.data.quota;
  const full = limit !== null && used >= limit;
  return (
    <div className="quota">
      <span className={full ? 'quota-full' : undefined}>
        {limit === null ? `${formatBytes(used)} used` : `${formatBytes(used)} of ${formatBytes(limit)} used${full ? ' (full)' : ''}`}
      </span>
      {limit !== null && <ProgressBar value={limit ? used / limit : 1} label="Storage used" />}
    </div>
  );
}
