import fs from 'node:fs';
import path from 'node:path';

/** The recorded `tailscale status --json` documents (server/test/fixtures/tailscale). */
export type RecordedStatus = 'running' | 'running-no-https' | 'logged-out' | 'stopped';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'tailscale');

/**
 * A `tailscale` executable for tests, at `<dir>/tailscale`: the real CLI needs its daemon and
 * the network, neither of which a test has. It is the boundary to an external program, played
 * by a script that answers `status --json` with a recorded document, `cert` with a real
 * certificate and key for the name asked (valid for `certDays`; made by Node, tailscale-cert.mjs,
 * so the tests need no openssl), and records each call. What it answers can be changed between calls, as the owner would change Tailscale.
 */
export class TailscaleCli {
  readonly command: string;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.command = path.join(dir, 'tailscale');
    fs.writeFileSync(this.command, script(), { mode: 0o755 });
    this.status('running');
    this.certDays(90);
  }

  /** What `status --json` prints next; 'daemon-down' exits 1 as the CLI does when tailscaled is not running. */
  status(recorded: RecordedStatus | 'daemon-down'): this {
    fs.rmSync(path.join(this.dir, 'status.json'), { force: true });
    if (recorded !== 'daemon-down') fs.copyFileSync(path.join(FIXTURES, `status-${recorded}.json`), path.join(this.dir, 'status.json'));
    return this;
  }

  /** How long the next certificates are valid. */
  certDays(days: number): this {
    fs.writeFileSync(path.join(this.dir, 'cert-days'), String(days));
    return this;
  }

  /** The next `cert` fails with this on stderr (null: it succeeds again). */
  certFails(stderr: string | null): this {
    const file = path.join(this.dir, 'cert-fails');
    if (stderr === null) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, stderr);
    return this;
  }

  /** The argument lists it was called with, one string each. */
  calls(): string[] {
    try {
      return fs.readFileSync(path.join(this.dir, 'calls.log'), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  }
}

/** Single-quoted for sh: a path with spaces or quotes stays one word. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The node running the tests makes the certificate: the script's PATH may hold no node at all. */
const script = () => `#!/bin/sh
here=$(dirname "$0")
echo "$*" >> "$here/calls.log"
case "$1" in
  status)
    if [ ! -f "$here/status.json" ]; then
      echo "failed to connect to local tailscaled; it doesn't appear to be running (sudo systemctl start tailscaled ?)" >&2
      exit 1
    fi
    cat "$here/status.json"
    ;;
  cert)
    [ "$2" = "--cert-file" ] && [ "$4" = "--key-file" ] || { echo "usage: tailscale cert --cert-file F --key-file F name" >&2; exit 2; }
    if [ -f "$here/cert-fails" ]; then cat "$here/cert-fails" >&2; exit 1; fi
    ${quoted(process.execPath)} ${quoted(path.join(import.meta.dirname, 'tailscale-cert.mjs'))} "$3" "$5" "$(cat "$here/cert-days")" "$6" || exit 1
    ;;
  *)
    echo "unknown command: $1" >&2
    exit 2
    ;;
esac
`;
