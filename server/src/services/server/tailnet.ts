import crypto from 'node:crypto';
import type { ServerConfig } from '../../config.ts';
import type { Logger } from '../../log.ts';
import { findTailscale, tailscaleCert, tailscaleStatus, type TailnetSelf } from '../../platform/tailscale.ts';
import { CommandError } from '../../platform/run.ts';
import { TailnetCertFiles, type CertificatePair } from '../../store/data-dir/tailnet-cert-files.ts';

/** The machine on its tailnet: the name phones open and its Tailscale addresses. */
export interface TailnetNow {
  name: string;
  addresses: string[];
}

export interface TailnetCertificate {
  key: Buffer;
  cert: Buffer;
  notAfter: Date;
}

/** What Hearth last saw of Tailscale, for the console: off by setting, not on this PC, installed but not up, or up. */
export type TailscaleSeen = 'off' | 'not_found' | 'not_running' | 'running';

export interface TailnetStatus {
  tailscale: TailscaleSeen;
  /** Tailscale's own words when it is installed but not up ("Tailscale is stopped."). */
  detail: string | null;
  /** Why there is no HTTPS certificate for the tailnet name, in words for the owner; null when there is one (or no tailnet). */
  certificateProblem: string | null;
}

/** Let's Encrypt certificates last 90 days; Tailscale's own renewal starts with a third left. */
const RENEW_WITHIN_MS = 30 * 24 * 60 * 60_000;
/** A refused certificate is asked for again no sooner than this: each try may reach Let's Encrypt, which limits failures. */
const RETRY_AFTER_FAILURE_MS = 60 * 60_000;

interface Held extends TailnetCertificate {
  name: string;
}

/**
 * Keeps Hearth's view of Tailscale fresh: looked at on start and every few minutes (a job), since
 * the owner may sign in, sign out or stop it at any time. While the PC is up on a tailnet,
 * its tailnet name is one of Hearth's names, and the HTTPS certificate `tailscale cert` gives
 * for it is kept in the data dir and renewed when under 30 days are left. Nothing here can
 * stop the server: a missing CLI, a stopped daemon or a refused certificate is a state the
 * console shows, and the server goes on serving plain HTTP (or its own certificate).
 */
export class Tailnet {
  private now: TailnetNow | null = null;
  private seen: TailnetStatus = { tailscale: 'not_found', detail: null, certificateProblem: null };
  private held: Held | null = null;
  private failedAt: { name: string; at: number } | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private httpsListener = false;
  private readonly listeners = new Set<() => void>();
  private readonly files: TailnetCertFiles;

  constructor(
    private readonly config: Pick<ServerConfig, 'tailscale' | 'tailscalePath' | 'tailnetCheckIntervalMs' | 'dataDir'>,
    private readonly log: Logger,
    private readonly clock: () => number = Date.now,
    private readonly retryAfterFailureMs = RETRY_AFTER_FAILURE_MS,
  ) {
    this.files = new TailnetCertFiles(config.dataDir);
    if (config.tailscale === 'off') this.seen = { tailscale: 'off', detail: null, certificateProblem: null };
  }

  /**
   * Looks now; the tailnet job (jobs/home-network.ts) looks again every few minutes. Resolves
   * once the first look is done (the server does not wait for it).
   */
  start(): Promise<void> {
    if (this.config.tailscale === 'off') return Promise.resolve();
    this.held = this.readKept();
    return this.refresh();
  }

  /** No look starts after this; the one under way is waited for. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** The machine's tailnet name and addresses while Tailscale is up; null otherwise. */
  current(): TailnetNow | null {
    return this.now;
  }

  /** The certificate for the current tailnet name, while it is valid; null otherwise. */
  certificate(): TailnetCertificate | null {
    const held = this.held;
    if (!held || held.name !== this.now?.name || held.notAfter.getTime() <= this.clock()) return null;
    return { key: held.key, cert: held.cert, notAfter: held.notAfter };
  }

  /**
   * Called by the HTTPS listener once it serves `certificate()` for the tailnet name on the
   * server's port: links and the console then say https. Until then they say http, which
   * Tailscale still carries encrypted from device to device.
   */
  servesHttps(serving: boolean): void {
    this.httpsListener = serving;
  }

  /** The name links are made on while Tailscale is up (PublicOrigin), and whether over HTTPS. */
  linkName(): { name: string; https: boolean } | null {
    const now = this.now;
    return now && { name: now.name, https: this.httpsListener && this.certificate() !== null };
  }

  status(): TailnetStatus {
    return this.seen;
  }

  /** Called after a look that changed the name, the addresses, the certificate or what is said about them. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Looks at Tailscale again now (one look at a time: a call during one waits for it). */
  refresh(): Promise<void> {
    this.running ??= this.look()
      .catch((error: unknown) => this.log.error('tailscale check failed', { error: String(error) }))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async look(): Promise<void> {
    if (this.stopped || this.config.tailscale === 'off') return;
    const before = this.fingerprint();
    const command = findTailscale(this.config.tailscalePath);
    const state = command === null ? ({ kind: 'not_found' } as const) : await tailscaleStatus(command);
    if (state.kind === 'running' && command !== null) {
      this.now = { name: state.self.name, addresses: state.self.addresses };
      const certificateProblem = await this.ensureCertificate(command, state.self);
      this.seen = { tailscale: 'running', detail: null, certificateProblem };
    } else {
      this.now = null;
      this.seen = { tailscale: state.kind, detail: state.kind === 'not_running' ? state.detail : null, certificateProblem: null };
    }
    const after = this.fingerprint();
    if (after === before) return;
    this.log.info('tailscale', { tailscale: this.seen.tailscale, name: this.now?.name ?? null, https: this.certificate() !== null });
    for (const listener of this.listeners) listener();
  }

  /** Gets a certificate when there is none for this name or it has under 30 days left; answers what stands in the way, or null. */
  private async ensureCertificate(command: string, self: TailnetSelf): Promise<string | null> {
    const held = this.held;
    const now = this.clock();
    if (held && held.name === self.name && held.notAfter.getTime() - now > RENEW_WITHIN_MS) return null;
    if (!self.certDomains.includes(self.name)) {
      return "HTTPS certificates are turned off for this tailnet: turn them on in Tailscale's admin console (DNS, HTTPS Certificates).";
    }
    if (this.failedAt && this.failedAt.name === self.name && now - this.failedAt.at < this.retryAfterFailureMs) {
      return this.seen.certificateProblem;
    }
    const files = this.files.prepare();
    try {
      await tailscaleCert(command, self.name, files.certFile, files.keyFile);
      const pair = this.files.readNew(files);
      const notAfter = checkCertificate(pair, self.name, now);
      await this.files.keep(pair);
      this.held = { ...pair, name: self.name, notAfter };
      this.failedAt = null;
      return null;
    } catch (error) {
      this.failedAt = { name: self.name, at: now };
      const problem = certificateProblem(error);
      this.log.warn('no tailnet certificate: serving without it', { name: self.name, error: String(error) });
      return problem;
    } finally {
      this.files.discard(files);
    }
  }

  private readKept(): Held | null {
    try {
      const pair = this.files.read();
      if (!pair) return null;
      const x509 = new crypto.X509Certificate(pair.cert);
      const name = x509.subjectAltName?.match(/DNS:([^,\s]+)/)?.[1]?.toLowerCase();
      if (!name) return null;
      return { ...pair, name, notAfter: checkCertificate(pair, name, this.clock()) };
    } catch (error) {
      this.log.warn('kept tailnet certificate not usable: a new one will be asked for', { error: String(error) });
      return null;
    }
  }

  private fingerprint(): string {
    return JSON.stringify([this.now, this.seen, this.certificate()?.notAfter ?? null]);
  }
}

/** A certificate for `name`, whose key is the one beside it, not expired: its end date; otherwise throws. */
export function checkCertificate(pair: CertificatePair, name: string, now: number): Date {
  const x509 = new crypto.X509Certificate(pair.cert);
  if (x509.checkHost(name) === undefined) throw new Error(`the certificate is not for ${name}`);
  if (!x509.checkPrivateKey(crypto.createPrivateKey(pair.key))) throw new Error('the certificate and the key do not belong together');
  const notAfter = new Date(x509.validTo);
  if (!(notAfter.getTime() > now)) throw new Error(`the certificate expired on ${x509.validTo}`);
  return notAfter;
}

/** The few refusals an owner can fix, said as what to do; anything else in Tailscale's words. */
function certificateProblem(error: unknown): string {
  const said =
    error instanceof CommandError ? error.stderr.trim() || error.message : String(error instanceof Error ? error.message : error);
  if (/does not support getting TLS certs|HTTPS.*(not enabled|disabled)|enable HTTPS/i.test(said)) {
    return "HTTPS certificates are turned off for this tailnet: turn them on in Tailscale's admin console (DNS, HTTPS Certificates).";
  }
  if (/access denied|operator/i.test(said)) {
    return 'Tailscale gives certificates only to its operator on this PC: run once `sudo tailscale set --operator=$USER` as the user that runs Hearth.';
  }
  return `Tailscale could not give a certificate: ${said.split('\n')[0]}`;
}
