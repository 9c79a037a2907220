/** Messages between main and the server's utility process (over its parentPort). */
import type { BackupHealth } from '../server/src/contract/backup-responses.ts';
import type { ConfigInput } from '../server/src/config.ts';
import type { TokenResponse } from '../server/src/contract/identity-responses.ts';
import type {
  BackupRun,
  BridgeResult,
  OwnerSetup,
  PendingDevice,
  RecoveryCode,
  RecoveryRefusal,
  RestoreRequest,
  RestoreSnapshots,
  SetupResult,
} from './ports.ts';

export type ToServer =
  | { type: 'start'; config: ConfigInput }
  | { type: 'local-session'; id: number }
  | { type: 'setup'; id: number; input: OwnerSetup }
  | { type: 'recovery-code'; id: number }
  | { type: 'restore-snapshots'; id: number; input: RestoreRequest }
  | { type: 'restore'; id: number; input: RestoreRequest }
  | { type: 'stop' };

export type FromServer =
  | { type: 'ready'; url: string; port: number; setupRequired: boolean }
  | { type: 'failed'; error: string }
  | { type: 'local-session'; id: number; tokens: TokenResponse | null; error?: string }
  | { type: 'setup'; id: number; result: SetupResult }
  /** `refused`: the server runs but its disk would not keep the code. */
  | { type: 'recovery-code'; id: number; code: RecoveryCode | null; refused?: RecoveryRefusal['refused'] }
  | { type: 'pending'; device: PendingDevice }
  | { type: 'settled'; sessionId: string }
  | { type: 'backup-health'; health: BackupHealth }
  | { type: 'restore-snapshots'; id: number; result: BridgeResult<RestoreSnapshots> }
  | { type: 'restore'; id: number; result: BridgeResult<BackupRun> }
  /** The server started again on restored data, in this process (after a restore from the window). */
  | { type: 'restarted'; url: string; port: number; setupRequired: boolean }
  | { type: 'stopped' };
