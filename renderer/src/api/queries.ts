import { queryOptions } from '@tanstack/react-query';
import { api, data, publicApi } from './client.ts';

/*
 * Server state that more than one feature reads. Each is asked one way, under one key, so every
 * reader shares one answer in the cache and one invalidation (an event, a save) reaches them
 * all. A feature's own queries (a folder's listing, the console's drives) stay in its folder's
 * queries.ts, under keys of its own or, for nodes, under `nodeKeys.all`.
 */

/** The signed-in account and its quota: the account page, the quota bar, uploads and quota events. */
export const meQuery = queryOptions({ queryKey: ['me'], queryFn: () => data(api.GET('/me')) });

/**
 * The server's name and whether it can save (asked without an account): the sign-in pages, the
 * connection and storage banners, the console's status page. Uploads held for space go on when
 * this answer says there is room again, whoever asked for it.
 */
export const statusQuery = queryOptions({ queryKey: ['status'], queryFn: () => data(publicApi.GET('/status')), staleTime: 60_000 });

/** The server's settings: the console edits them; sharing reads link reach, the gallery the trash's days. */
export const settingsQuery = queryOptions({ queryKey: ['settings'], queryFn: () => data(api.GET('/server/settings')) });

/** Devices waiting for an owner's approval: the badge on Manage, on every page, and the console's Devices page. */
export const pendingDevicesQuery = queryOptions({
  queryKey: ['devices', 'pending'],
  queryFn: async () => (await data(api.GET('/devices/pending'))).items,
  // Events bring news at once; this only covers a socket that is down.
  refetchInterval: 30_000,
});

/** Everything about nodes sits under `nodeKeys.all`: invalidating it refreshes every view of files. */
export const nodeKeys = {
  all: ['nodes'] as const,
  one: (id: string) => ['nodes', 'one', id] as const,
  path: (id: string) => ['nodes', 'path', id] as const,
  grants: (id: string) => ['nodes', 'grants', id] as const,
};

export function nodeQuery(id: string) {
  return queryOptions({ queryKey: nodeKeys.one(id), queryFn: () => data(api.GET('/nodes/{id}', { params: { path: { id } } })) });
}

/** The folders from the top down to a node, the node itself last: breadcrumbs, and the grants above it. */
export function nodePathQuery(id: string) {
  return queryOptions({
    queryKey: nodeKeys.path(id),
    queryFn: async () => (await data(api.GET('/nodes/{id}/path', { params: { path: { id } } }))).items,
  });
}

/** The grants on a node itself (only its owner may ask): the details panel and the share dialog read one answer. */
export function nodeGrantsQuery(id: string) {
  return queryOptions({
    queryKey: nodeKeys.grants(id),
    queryFn: async () => (await data(api.GET('/nodes/{id}/permissions', { params: { path: { id } } }))).items,
  });
}

/** The family's accounts as `/users` names them (a person's name, never more); sharing finds people under it too. */
export const peopleKeys = {
  all: ['people'] as const,
  names: ['people', 'names'] as const,
};

/** Each account's name by its id, to say who owns what. */
export const personNamesQuery = queryOptions({
  queryKey: peopleKeys.names,
  staleTime: 5 * 60_000,
  queryFn: async () => new Map((await data(api.GET('/users', { params: { query: { limit: 1000 } } }))).items.map((u) => [u.id, u.name])),
});

/** The Private folder's state in this session (open until when, a PIN set): the Private page and Account's PIN. */
export const privateStatusQuery = queryOptions({ queryKey: ['private', 'status'], queryFn: () => data(api.GET('/private')) });
