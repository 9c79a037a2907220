import { AppError } from '../app-error.ts';

/**
 * Answered when a browser's session ends at its own request or on its own refresh: the browser
 * drops what it kept of this origin in its HTTP cache (thumbnails and files fetched for the
 * account that just left). Browsers honour it in a secure context only (https, or localhost:
 * the desktop window); on a plain-http address of the home network it is ignored, and what
 * keeps one account's pictures from the next there is that nothing private is used from the
 * cache without asking the server first (`private, no-cache`).
 */
export const CLEAR_CACHE: Readonly<Record<string, string>> = { 'Clear-Site-Data': '"cache"' };

/** The same error, clearing the cache of the browser it goes to. */
export function clearingCache(error: AppError): AppError {
  return new AppError(error.code, error.message, {
    ...(error.field !== undefined && { field: error.field }),
    headers: { ...error.headers, ...CLEAR_CACHE },
  });
}
