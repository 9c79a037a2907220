/**
 * The two SQLite engines behind store/database/db.ts on the store's own work: node:sqlite (what the
 * desktop app runs, Node 24) against better-sqlite3 (what `npm start` runs on Node 20, the
 * reference). Each runs in a process of its own, alternating over rounds; medians compared.
 * The Node versions differ too, as they do between the app and the headless server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, type BenchResult } from './lib/report.ts';
// @ts-expect-error: a plain ES module script without types
import { node24Path } from '../scripts/node24.mjs';

const ROUNDS = 3;
const HERE = path.dirname(fileURLToPath(import.meta.url));

interface Figures {
  engine: string;
  node: string;
  commits: number;
  pointReadUs: number;
  pageUs: number;
}

function runWorkload(binary: string, engine: 'node' | 'better'): Figures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-sqlite-'));
  try {
    const out = execFileSync(binary, ['--import', 'tsx', path.join(HERE, 'lib/sqlite-workload.ts'), engine, dir], {
      encoding: 'utf8',
      cwd: path.join(HERE, '..'),
    });
    return JSON.parse(out.trim().split('\n').pop()!) as Figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchSqliteEngines(): Promise<BenchResult> {
  const node24 = (node24Path as () => string)();
  const runs: Record<'node' | 'better', Figures[]> = { node: [], better: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`  round ${round}/${ROUNDS}: better-sqlite3 on ${process.version}, then node:sqlite on Node 24`);
    runs.better.push(runWorkload(process.execPath, 'better'));
    runs.node.push(runWorkload(node24, 'node'));
  }
  const pick = (engine: 'node' | 'better', key: 'commits' | 'pointReadUs' | 'pageUs') => median(runs[engine].map((r) => r[key]));
  const reference = `better-sqlite3 on Node ${runs.better[0]!.node} (npm start), same workload, same filesystem, medians of ${ROUNDS} rounds`;
  return {
    name: 'sqlite engines',
    rows: [
      {
        figure: 'node:sqlite durable commits per second',
        value: pick('node', 'commits'),
        reference: pick('better', 'commits'),
        unit: '/s',
        better: 'higher',
        referenceIs: reference,
      },
      {
        figure: 'node:sqlite node lookup (NodesRepo.byId)',
        value: pick('node', 'pointReadUs'),
        reference: pick('better', 'pointReadUs'),
        unit: 'us',
        better: 'lower',
        referenceIs: reference,
      },
      {
        figure: 'node:sqlite 100-row listing page (NodesRepo.list)',
        value: pick('node', 'pageUs'),
        reference: pick('better', 'pageUs'),
        unit: 'us',
        better: 'lower',
        referenceIs: reference,
      },
    ],
    notes: [
      `node:sqlite ran on Node ${runs.node[0]!.node}. Durable commits are one fsynced single-row transaction each (WAL, synchronous=FULL); ` +
        'lookups and pages read a 2,000-file top level.',
    ],
  };
}
