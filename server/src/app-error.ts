import { ERROR_CATALOGUE, type ErrorBody, type ErrorCode } from './contract/error-codes.ts';

export { ERROR_CATALOGUE, type ErrorCode };

/** The only error type that crosses layers: a catalogue code, optionally a field and headers. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: { field?: string; headers?: Record<string, string> } = {}) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.code = code;
    this.field = options.field;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.field !== undefined) error.field = this.field;
    return { error };
  }
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}
