import { AppError } from '../../app-error.ts';

/**
 * Characters that make a name read differently from what it is: C0 and C1 controls (DEL
 * included), line and paragraph separators, and the bidi controls (embeddings, overrides,
 * isolates, and the marks LRM, RLM and ALM). `invoice\u202Efdp.exe` shows as "invoiceexe.pdf".
 */
// eslint-disable-next-line no-control-regex
const SPOOFING_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** Any name a person reads (file, folder, display, device, server, library): 400 `invalid_name` if it could spoof. */
export function checkReadableName(name: string, field: string): void {
  if (withoutSpoofingCharacters(name) !== name) {
    throw new AppError('invalid_name', 'Names cannot contain control characters or text-direction overrides.', { field });
  }
}

/** Text we record but do not refuse (a User-Agent), with what could spoof removed. */
export function withoutSpoofingCharacters(text: string): string {
  return text.replace(SPOOFING_CHARACTERS, '');
}
