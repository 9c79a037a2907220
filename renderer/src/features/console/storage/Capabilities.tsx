import type { DrivesAnswer } from './queries.ts';
import './storage.css';

const WHAT = { format: 'erase drives', mount: 'open drives for files', pool: 'combine drives' } as const;

/**
 * What this PC does not let Hearth do with drives, in plain words; what the system lacks
 * (udisks2, mergerfs, a polkit rule) is for whoever looks after the PC, a click away.
 * Silent when all is possible.
 */
export function Capabilities({ capabilities }: { capabilities: DrivesAnswer['capabilities'] }) {
  const missing = (Object.keys(WHAT) as (keyof typeof WHAT)[]).filter((k) => !capabilities[k].available);
  if (missing.length === 0) return null;
  return (
    <section className="notice capabilities" aria-labelledby="capabilities-title">
      <h3 id="capabilities-title">What this PC does not allow yet</h3>
      <ul>
        {missing.map((k) => (
          <li key={k}>
            <strong>Hearth cannot {WHAT[k]} here.</strong>
          </li>
        ))}
      </ul>
      <p className="capabilities-why">
        This PC has not given Hearth the permission or the tool for it. Files, photos and sharing work without it; whoever looks after this
        PC can allow it.
      </p>
      <details>
        <summary>Technical details, for whoever looks after this PC</summary>
        <ul>
          {missing.map((k) => (
            <li key={k}>{capabilities[k].reason ?? `Hearth cannot ${WHAT[k]} here.`}</li>
          ))}
        </ul>
        <p>What to allow:</p>
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
