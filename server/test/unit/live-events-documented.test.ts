/**
 * A client is written from docs/api.md: every event the WebSocket carries (contract/events.ts,
 * the one list the gateway forwards) is in its Live events table with its payload, and the end
 * of a whole-server restore, which no event can announce, is said where backups are.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../../..');
const api = fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8');
const contract = fs.readFileSync(path.join(root, 'server/src/contract/events.ts'), 'utf8');

function section(heading: string): string {
  const start = api.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `docs/api.md has no "## ${heading}"`);
  const next = api.indexOf('\n## ', start + 3);
  return api.slice(start, next < 0 ? undefined : next);
}

function contractEvents(): string[] {
  const body = contract.slice(
    contract.indexOf('export interface EventPayloads'),
    contract.indexOf('\n}\n', contract.indexOf('export interface EventPayloads')),
  );
  return [...body.matchAll(/^ {2}'([a-z_]+\.[a-z_]+)':/gm)].map((match) => match[1]!);
}

test('every event of contract/events.ts has a row of the Live events table, with its payload', () => {
  const events = contractEvents();
  assert.ok(events.length >= 20, `read ${events.length} events from contract/events.ts`);
  const rows = section('Live events')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  for (const event of events) {
    const row = rows.find((line) => line.split('|')[1]!.includes(`\`${event}\``));
    assert.ok(row, `${event} is not in docs/api.md's Live events table`);
    assert.match(row.split('|').slice(3).join('|'), /`\{/, `${event}'s row gives no payload`);
  }
});

test("the end of a whole-server restore is documented: GET /setup/restore's 409 already_set_up, and GET /status", () => {
  const backups = section('Backups and restore (owner)');
  assert.match(backups, /GET \/setup\/restore/);
  assert.match(backups, /already_set_up/);
  assert.match(backups, /restoring/);
});
