import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import type { Answer } from '../../../api/types.ts';
import { consoleKeys } from '../keys.ts';

export type Library = Answer<'/libraries', 'get'>['items'][number];
export type DrivesAnswer = Answer<'/admin/drives', 'get'>;
export type Drive = DrivesAnswer['items'][number];
export type Capability = DrivesAnswer['capabilities']['format'];
export type FormatResult = Answer<'/admin/drives/{id}/format', 'post'>;

/** A drive with what a read-only look found on it; `contents` is null when the server could not look. */
export type DriveDetail = Answer<'/admin/drives/{id}', 'get'>;
export type DriveContents = NonNullable<DriveDetail['contents']>;

export type PlaybackQueue = Answer<'/admin/playback-copies', 'get'>;

export function usePlaybackQueue() {
  return useQuery({ queryKey: consoleKeys.playback, queryFn: () => data(api.GET('/admin/playback-copies')) });
}

export function useLibraries() {
  return useQuery({ queryKey: consoleKeys.libraries, queryFn: async () => (await data(api.GET('/libraries'))).items });
}

export function useDrives() {
  return useQuery({ queryKey: consoleKeys.drives, queryFn: () => data(api.GET('/admin/drives')) });
}

export function useDriveDetail(id: string) {
  return useQuery({
    queryKey: consoleKeys.drive(id),
    queryFn: () => data(api.GET('/admin/drives/{id}', { params: { path: { id } } })),
    staleTime: 0,
  });
}

export type FaceFinding = Answer<'/admin/faces', 'get'>;

/**
 * Face finding's progress: kept live by the faces.progress events (useConsoleEvents), and read
 * again now and then while photos are looked at, for an event sent before the socket opened.
 */
export function useFaceFinding() {
  return useQuery({
    queryKey: consoleKeys.faces,
    queryFn: () => data(api.GET('/admin/faces')),
    refetchInterval: (query) => (query.state.data?.state === 'finding' ? 15_000 : false),
  });
}
