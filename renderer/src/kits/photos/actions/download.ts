import { api, data } from '../../../api/client.ts';
import { startDownload } from '../../../api/downloads.ts';
import type { Node } from '../../../api/types.ts';
import { saveFrom } from '../../../api/saveFrom.ts';

export type Downloaded = { kind: 'file'; name: string } | { kind: 'zip'; name: string; files: number; bytes: number };

/**
 * One file is saved as it is. Several become one zip the server makes as it sends it: asked
 * for with the session (every mistake answered here, in words), then fetched by the browser
 * itself from a one-use ticket's URL, so it streams to disk whatever its size (a fetch would
 * gather it in this page's memory) and no session token goes into a URL. Works on plain HTTP
 * too: a link click needs no secure context.
 */
export async function downloadSelection(nodes: readonly Node[], zipName: string): Promise<Downloaded> {
  if (nodes.length === 1) {
    await startDownload(nodes[0]!);
    return { kind: 'file', name: nodes[0]!.name };
  }
  const ticket = await data(api.POST('/downloads', { body: { node_ids: nodes.map((node) => node.id), name: zipName } }));
  saveFrom(ticket.url, ticket.name);
  return { kind: 'zip', name: ticket.name, files: ticket.files, bytes: ticket.bytes };
}
