import fs from 'node:fs';
import path from 'node:path';

/** The recorded `tailscale status --json` documents (server/test/fixtures/tailscale). */
export type RecordedStatus = 'running' | 'running-no-https' | 'logged-out' | 'stopped';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'tailscale');

/**
 * A `tailscale` executable for tests, at `<dir>/tailscale`: the real CLI needs its daemon and
 * the network, neither of which a test has. It is the boundary to an external program, played
 * by a script that answers `status --json` with a recorded document, `cert` with a real
 * certificate and key made by openssl for the name asked (valid for `certDays`), and records
 * each call. What it answers can be changed between calls, as the owner would change Tailscale.
 */
export class TailscaleCli {
  readonly command: string;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.command = path.join(dir, 'tailscale');
    fs.writeFileSync(this.command, SCRIPT, { mode: 0o755 });
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

const SCRIPT = `#!/bin/sh
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
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$5" -out "$3" \\
      -days "$(cat "$here/cert-days")" -subj "/CN=$6" -addext "subjectAltName=DNS:$6" 2>"$here/openssl.err" || { cat "$here/openssl.err" >&2; exit 1; }
    ;;
  *)
    echo "unknown command: $1" >&2
    exit 2
    ;;
esac
`;
