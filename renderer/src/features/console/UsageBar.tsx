import { formatBytes } from '../../ui/format.ts';

/**
 * How full something is, as a bar and in words. `hearth` (optional) is the part that is the
 * family's files, drawn darker inside the used part.
 */
export function UsageBar({ label, used, total, hearth }: { label: string; used: number; total: number | null; hearth?: number }) {
  const percent = total && total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  const hearthPercent = total && total > 0 && hearth !== undefined ? Math.min(percent, (hearth / total) * 100) : 0;
  const words = total === null ? `${formatBytes(used)} used, no limit` : `${formatBytes(used)} of ${formatBytes(total)} used`;
  return (
    <div
      className={`usage${percent >= 90 ? ' usage-full' : ''}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={words}
    >
      <div className="usage-track" aria-hidden="true">
        <span className="usage-used" style={{ width: `${percent}%` }} />
        {hearthPercent > 0 && <span className="usage-hearth" style={{ width: `${Math.max(hearthPercent, 0.8)}%` }} />}
      </div>
    </div>
  );
}
