import createClient from 'openapi-fetch';
import { ApiError, errorOf, networkError } from './error-messages.ts';
import type { paths } from './schema';
import { events } from './events.ts';
import { session } from './session.ts';
import { EVENT_COUNT_HEADER } from '../../../server/src/contract/events.ts';

export const API_BASE = '/api/v1';

/**
 * Every API request goes through here: the current access token is added, and on a 401 the
 * one refresh of this tab runs and the request is replayed once with the new token.
 */
export async function authedFetch(request: Request): Promise<Response> {
  const replay = request.clone();
  const token = await session.accessToken();
  const first = await send(request, token);
  if (first.status !== 401 || token === null) return noted(first);
  const error = await errorOf(first);
  if (error.code !== 'invalid_token' && error.code !== 'unauthorized') return first;
  const fresh = await session.refresh(token);
  if (fresh === null) return first;
  return noted(await send(replay, fresh));
}

/** A read's event count, which tells whether what it answered may miss an event (events.noteAnswer). */
function noted(response: Response): Response {
  events.noteAnswer(response.headers.get(EVENT_COUNT_HEADER));
  return response;
}

async function send(request: Request, token: string | null): Promise<Response> {
  const withToken = new Request(request);
  if (token) withToken.headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetch(withToken);
  } catch (caught) {
    if (caught instanceof DOMException && caught.name === 'AbortError') throw caught;
    throw networkError();
  }
}

export const api = createClient<paths>({ baseUrl: API_BASE, fetch: authedFetch });

/** Requests that need no account (sign-in, register, status, public links). */
export const publicApi = createClient<paths>({
  baseUrl: API_BASE,
  fetch: async (request) => {
    try {
      return await fetch(request);
    } catch {
      throw networkError();
    }
  },
});

/** The data of a typed call, or its error as an ApiError with a human sentence. */
export async function data<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data: body, error, response } = await call;
  if (response.ok) return body as T;
  throw await errorOf(response, error);
}

export function isApiError(value: unknown, code?: ApiError['code']): value is ApiError {
  return value instanceof ApiError && (code === undefined || value.code === code);
}
