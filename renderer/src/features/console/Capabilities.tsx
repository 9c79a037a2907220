import type { DrivesAnswer } from './queries.ts';

const WHAT = { format: 'erase drives', mount: 'open drives for files', pool: 'combine drives' } as const;

/** What this PC does not let Hearth do with drives, and what the owner can allow. Silent when all is possible. */
export function Capabilities({ capabilities }: { capabilities: DrivesAnswer['capabilities'] }) {
  const missing = (Object.keys(WHAT) as (keyof typeof WHAT)[]).filter((k) => !capabilities[k].available);
  if (missing.length === 0) return null;
  return (
    <section className="notice capabilities" aria-labelledby="capabilities-title">
      <h3 id="capabilities-title">What this PC does not allow yet</h3>
      <ul>
        {missing.map((k) => (
          <li key={k}>
            <strong>Hearth cannot {WHAT[k]} here.</strong> {capabilities[k].reason ?? ''}
          </li>
        ))}
      </ul>
      <details>
        <summary>What to allow</summary>
        <ul>
          <li>To open and eject drives: udisks2 (on every desktop Linux), or run Hearth as a system service.</li>
          <li>To combine drives: install mergerfs (sudo apt install mergerfs fuse3).</li>
          <li>To erase drives: run Hearth as a system service (root), or allow it in a polkit rule for udisks2.</li>
          <li>On Windows and macOS, drives are listed here; opening, combining and erasing them works on Linux only for now.</li>
        </ul>
      </details>
    </section>
  );
}
