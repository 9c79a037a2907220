import { api, data } from '../../api/client.ts';

export type HashState = 'present' | 'deleted' | 'absent';

/** The server takes at most this many hashes per question. */
export const CHECK_BATCH = 1000;

export type AskServer = (hashes: string[]) => Promise<HashState[]>;

/** POST /nodes/check-hashes: what this account already has of each content, in the order asked. */
export const askServer: AskServer = async (hashes) => {
  const body = await data(api.POST('/nodes/check-hashes', { body: { algorithm: 'sha256', hashes } }));
  const byHash = new Map(body.items.map((item) => [item.hash, item.state]));
  return hashes.map((hash) => byHash.get(hash) ?? 'absent');
};

export interface BackupPlan {
  /** Already on Hearth (a live file of this account with the same content). */
  here: number;
  /** Not on Hearth: these are sent. */
  toSend: File[];
  /** Deleted in Hearth before: skipped unless the person asks for them. */
  deleted: File[];
  /** Could not be read on this device (gone since they were chosen). */
  unreadable: number;
}

/**
 * Sorts the chosen files by what the server says of their content. The same content chosen
 * twice (a photo copied into two albums) is sent once. Hashes go in batches of 1000 (the
 * server's limit), each distinct hash once.
 */
export async function planBackup(files: File[], hashes: (string | null)[], ask: AskServer = askServer): Promise<BackupPlan> {
  const distinct = [...new Set(hashes.filter((h): h is string => h !== null))];
  const states = new Map<string, HashState>();
  for (let at = 0; at < distinct.length; at += CHECK_BATCH) {
    const batch = distinct.slice(at, at + CHECK_BATCH);
    const answers = await ask(batch);
    batch.forEach((hash, i) => states.set(hash, answers[i] ?? 'absent'));
  }
  const plan: BackupPlan = { here: 0, toSend: [], deleted: [], unreadable: 0 };
  const taken = new Set<string>();
  files.forEach((file, i) => {
    const hash = hashes[i];
    if (hash == null) {
      plan.unreadable += 1;
      return;
    }
    const state = states.get(hash) ?? 'absent';
    if (state === 'present' || taken.has(hash)) plan.here += 1;
    else if (state === 'deleted') plan.deleted.push(file);
    else plan.toSend.push(file);
    taken.add(hash);
  });
  return plan;
}
