import { authedFetch, API_BASE } from '../../api/client.ts';
import { errorOf } from '../../api/error-messages.ts';

/** A GET the generated client does not know yet (routes newer than this build's types). */
export async function getJson<T>(path: string): Promise<T> {
  const response = await authedFetch(new Request(`${API_BASE}${path}`));
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}
