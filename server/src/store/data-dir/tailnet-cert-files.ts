import fs from 'node:fs';
import path from 'node:path';
import { syncFolder, writeFileDurably } from '../common/durable-file.ts';

export interface CertificatePair {
  cert: Buffer;
  key: Buffer;
}

const CERT = 'tailnet.crt';
const KEY = 'tailnet.key';

/**
 * The tailnet certificate and its private key, in a folder of the data dir only the server's
 * user can open (0700, files 0600): whoever reads the key can pose as this Hearth to everyone
 * in the tailnet. `tailscale cert` writes into fresh temp names there; a pair is put in place
 * only once it has been checked, so a failed or cut-short renewal leaves the old pair serving.
 */
export class TailnetCertFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'tailscale');
  }

  /** The pair kept from an earlier run, or null. */
  read(): CertificatePair | null {
    try {
      return { cert: fs.readFileSync(path.join(this.dir, CERT)), key: fs.readFileSync(path.join(this.dir, KEY)) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Two temp names for `tailscale cert` to write, in the private folder (made or made private again here). */
  prepare(): { certFile: string; keyFile: string } {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.dir, 0o700);
    const stamp = `${process.pid}.${Date.now()}`;
    return { certFile: path.join(this.dir, `new-${stamp}.crt`), keyFile: path.join(this.dir, `new-${stamp}.key`) };
  }

  /** Reads what `tailscale cert` wrote into the temp names. */
  readNew(files: { certFile: string; keyFile: string }): CertificatePair {
    return { cert: fs.readFileSync(files.certFile), key: fs.readFileSync(files.keyFile) };
  }

  /** Keeps a checked pair as the current one (the key first: a pair cut in half is refused on reading, never served). */
  async keep(pair: CertificatePair): Promise<void> {
    writeFileDurably(path.join(this.dir, KEY), pair.key.toString('utf8'));
    writeFileDurably(path.join(this.dir, CERT), pair.cert.toString('utf8'));
    await syncFolder(this.dir);
  }

  /** Takes the temp names away, whatever became of them. */
  discard(files: { certFile: string; keyFile: string }): void {
    fs.rmSync(files.certFile, { force: true });
    fs.rmSync(files.keyFile, { force: true });
  }
}
