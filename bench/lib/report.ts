/**
 * One line of the final table. The ratio is always server ÷ reference, both measured in the
 * same run on the same machine; `better` says which direction is good for that figure.
 */
export interface Row {
  figure: string;
  value: number;
  reference: number;
  unit: string;
  better: 'higher' | 'lower';
  /** What the reference is, printed under the table. */
  referenceIs: string;
}

export interface BenchResult {
  name: string;
  rows: Row[];
  /** Extra facts worth reading next to the figures (sample sizes, caveats). */
  notes: string[];
}

export function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function fmt(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

export function printTable(results: readonly BenchResult[]): void {
  const rows = results.flatMap((r) => r.rows);
  const header = ['figure', 'server', 'reference', 'ratio (server/ref)', 'better'];
  const lines = rows.map((row) => [
    row.figure,
    fmt(row.value, row.unit),
    fmt(row.reference, row.unit),
    Number.isFinite(row.value / row.reference) ? `${(row.value / row.reference).toFixed(2)}x` : 'n/a',
    row.better,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const render = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  log('');
  log(render(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) log(render(line));
  log('');
  log('references (measured in this run):');
  for (const row of rows) log(`  ${row.figure}: ${row.referenceIs}`);
  const notes = results.flatMap((r) => r.notes.map((n) => `  [${r.name}] ${n}`));
  if (notes.length > 0) {
    log('');
    log('notes:');
    for (const note of notes) log(note);
  }
}
