import crypto from 'node:crypto';
import { loadPortableAead, nativeAead, type Aead } from '../server/src/store/archives/age-aead.ts';
import { log, type BenchResult } from './lib/report.ts';
import { GiB, MiB } from './lib/transfer.ts';

const CHUNK = 64 * 1024;
const BYTES_PER_ROUND = 256 * MiB;
const ROUNDS = 3;

/**
 * The backup cipher (age's ChaCha20-Poly1305 in 64 KiB chunks) as the desktop app runs it
 * (libsodium's WebAssembly: Electron's crypto has no chacha20-poly1305) against Node's own, which
 * `npm start` uses: CPU seconds per GiB sealed and opened on this thread, rounds alternating.
 */
export async function benchAgeCipher(): Promise<BenchResult> {
  const sides: [string, Aead][] = [
    ['node', nativeAead],
    ['libsodium', await loadPortableAead()],
  ];
  const key = crypto.randomBytes(32);
  const nonce = crypto.randomBytes(12);
  const plain = crypto.randomBytes(CHUNK);
  const sealed = nativeAead.seal(key, nonce, plain);
  const cpu = new Map(sides.map(([name]) => [name, { seal: 0, open: 0 }]));
  const chunks = BYTES_PER_ROUND / CHUNK;
  const timed = (work: () => void) => {
    const start = process.cpuUsage();
    for (let i = 0; i < chunks; i++) work();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1e6;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, aead] of round % 2 === 0 ? sides : [...sides].reverse()) {
      const totals = cpu.get(name)!;
      totals.seal += timed(() => aead.sealParts(key, nonce, plain));
      totals.open += timed(() => aead.open(key, nonce, sealed));
      log(`  round ${round + 1}/${ROUNDS} ${name}: seal ${totals.seal.toFixed(2)} s, open ${totals.open.toFixed(2)} s so far`);
    }
  }
  const perGiB = (seconds: number) => seconds / ((ROUNDS * BYTES_PER_ROUND) / GiB);
  const node = cpu.get('node')!;
  const portable = cpu.get('libsodium')!;
  return {
    name: 'age cipher',
    rows: [
      {
        figure: 'desktop app: sealing a backup (ChaCha20-Poly1305, 64 KiB chunks)',
        value: perGiB(portable.seal),
        reference: perGiB(node.seal),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs: "Node's own chacha20-poly1305 (OpenSSL), as `npm start` seals, same chunks, rounds alternating",
      },
      {
        figure: 'desktop app: opening a backup (restore, check)',
        value: perGiB(portable.open),
        reference: perGiB(node.open),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs: "Node's own, opening the same sealed chunk",
      },
    ],
    notes: [
      `${ROUNDS} rounds of ${BYTES_PER_ROUND / MiB} MiB each way; the desktop app's server uses libsodium ${(await import('libsodium-wrappers')).default.sodium_version_string()} (WebAssembly) because Electron's BoringSSL has no chacha20-poly1305 (age-aead.ts)`,
    ],
  };
}
