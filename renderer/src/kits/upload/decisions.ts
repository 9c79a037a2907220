import type { ErrorCode } from '../../../../server/src/contract/error-codes.ts';
import { humanMessage, knownCode } from '../../api/error-messages.ts';

/**
 * What the upload queue does with a request of an upload that did not succeed. It branches on
 * the error envelope's code, as every client of the API should; the HTTP status decides only
 * where no envelope came back: no answer at all (status 0), a proxy's HTML page, or a HEAD
 * (tus asks where an upload stands with HEAD, whose answers carry no body).
 */
export interface FailedAnswer {
  /** 0 when nothing answered. */
  status: number;
  /** The envelope's error, when the answer was one this app knows. */
  error: { code: ErrorCode; message: string | undefined; field: string | undefined } | null;
}

/**
 * - `refresh`: the access token expired; refresh it, and the retry carries the new one.
 * - `retry`: may pass in a moment; tus-js-client tries again on its own schedule.
 * - `hold`: the server's disk is full or read-only; wait, and go on once it has room.
 * - `later`: will not pass in the next seconds but may later: stop, and Resume (or the
 *   network coming back) tries again.
 * - `refused`: the server refused this file itself (its name, its size, its folder): the same
 *   file sent again gets the same answer.
 */
export type Handling = 'refresh' | 'retry' | 'hold' | 'later' | 'refused';

/** Every code that is not a refusal of the file: any other code the upload routes answer is one. */
const BY_CODE: Partial<Record<ErrorCode, Handling>> = {
  unauthorized: 'refresh',
  invalid_token: 'refresh',
  // Out of step or damaged on the way: tus asks where the server is, and sends from there.
  offset_mismatch: 'retry',
  checksum_mismatch: 'retry',
  internal: 'retry',
  storage_full: 'hold',
  storage_read_only: 'hold',
  library_offline: 'later',
  unavailable: 'later',
  busy: 'later',
  rate_limited: 'later',
  slow_down: 'later',
  request_timeout: 'later',
  // The file it replaces went to the trash meanwhile: restored, Resume sends it.
  in_trash: 'later',
};

/** Reads a failed answer: the status, and the envelope when the body is one. */
export function readAnswer(status: number, body: string | null | undefined): FailedAnswer {
  let error: FailedAnswer['error'] = null;
  try {
    const envelope = (JSON.parse(body ?? '') as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
    const code = knownCode(typeof envelope?.code === 'string' ? envelope.code : undefined);
    if (code !== 'unknown') {
      error = {
        code,
        message: typeof envelope?.message === 'string' ? envelope.message : undefined,
        field: typeof envelope?.field === 'string' ? envelope.field : undefined,
      };
    }
  } catch {
    // Not JSON: a proxy's page, or no body at all.
  }
  return { status, error };
}

export function handlingOf(answer: FailedAnswer): Handling {
  const { error } = answer;
  if (error) {
    // A file bigger than all the room left will not fit once some is freed either.
    if (error.code === 'storage_full' && error.field === 'Upload-Length') return 'refused';
    return BY_CODE[error.code] ?? 'refused';
  }
  return handlingOfStatus(answer.status);
}

/** Without an envelope: nothing answered, a proxy's page, or a HEAD. */
function handlingOfStatus(status: number): Handling {
  if (status === 0) return 'retry';
  if (status === 401) return 'refresh';
  // A HEAD out of step or locked, a proxy's 5xx page: they pass.
  if (status === 409 || status === 423 || status === 460) return 'retry';
  if (status === 408 || status === 429 || status === 503) return 'later';
  if (status >= 500 && status !== 507) return 'retry';
  return 'refused';
}

/** Whether tus-js-client should send the request again now. */
export function retriesNow(handling: Handling): boolean {
  return handling === 'refresh' || handling === 'retry';
}

/** The account's quota changed or ran out: the usage shown should be read again. */
export function quotaMayHaveChanged(answer: FailedAnswer): boolean {
  return answer.error ? answer.error.code === 'quota_exceeded' || answer.error.code === 'storage_full' : answer.status === 507;
}

/** The sentence a person reads under the file. */
export function messageOf(answer: FailedAnswer): string {
  const { error } = answer;
  // "Not enough room for this file" says how much there is: the server's own sentence.
  if (error?.code === 'storage_full' && error.field === 'Upload-Length' && error.message) return error.message;
  if (error) return humanMessage(error.code);
  if (answer.status === 0) return "Can't reach the server. It will continue when the connection is back.";
  return 'The upload failed. Try again.';
}

/** Where an upload ends up once no retry is left: waiting for space, or stopped with a sentence. */
export type Outcome = { kind: 'hold' } | { kind: 'failed'; message: string; forGood: boolean };

export function outcomeOf(answer: FailedAnswer): Outcome {
  const handling = handlingOf(answer);
  if (handling === 'hold') return { kind: 'hold' };
  return { kind: 'failed', message: messageOf(answer), forGood: handling === 'refused' };
}
