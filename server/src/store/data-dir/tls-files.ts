import fs from 'node:fs';
import path from 'node:path';
import { writeAtomically } from './keys.ts';

/** The server certificate in use and its key, PEM. */
export interface StoredCertificate {
  keyPem: string;
  certPem: string;
}

const DIR = 'tls';
/** Key and certificate in one file, so that one rename replaces both: never a key beside another's certificate. */
const FILE = 'server.pem';

/**
 * The server's current certificate, in `<data>/tls/`, private to the server's user. It is not
 * backed up: the authority is (in keys.json), and a restored server issues itself a new one.
 */
export class TlsFiles {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, DIR);
  }

  read(): StoredCertificate | null {
    try {
      const text = fs.readFileSync(path.join(this.dir, FILE), 'utf8');
      const keyPem = /-----BEGIN (?:RSA )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA )?PRIVATE KEY-----\r?\n?/.exec(text)?.[0];
      const certPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\r?\n?/.exec(text)?.[0];
      return keyPem && certPem ? { keyPem, certPem } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  write(certificate: StoredCertificate): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.dir, 0o700);
    writeAtomically(path.join(this.dir, FILE), certificate.keyPem + certificate.certPem);
  }
}
