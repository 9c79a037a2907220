import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import type { Answer } from '../../../api/types.ts';
import { getJson } from '../getJson.ts';
import { consoleKeys } from '../keys.ts';

export type Library = Answer<'/libraries', 'get'>['items'][number];
export type DrivesAnswer = Answer<'/admin/drives', 'get'>;
export type Drive = DrivesAnswer['items'][number];
export type Capability = DrivesAnswer['capabilities']['format'];
export type FormatResult = Answer<'/admin/drives/{id}/format', 'post'>;

/** What a read-only look found on a drive; null when the server could not look. */
export interface DriveContents {
  used: number;
  top_level: { name: string; kind: 'folder' | 'file' }[];
  files: number;
  photos: number;
  complete: boolean;
}
export type DriveDetail = Drive & { contents: DriveContents | null };

export function useLibraries() {
  return useQuery({ queryKey: consoleKeys.libraries, queryFn: async () => (await data(api.GET('/libraries'))).items });
}

export function useDrives() {
  return useQuery({ queryKey: consoleKeys.drives, queryFn: () => data(api.GET('/admin/drives')) });
}

export function useDriveDetail(id: string) {
  return useQuery({ queryKey: consoleKeys.drive(id), queryFn: () => getJson<DriveDetail>(`/admin/drives/${encodeURIComponent(id)}`), staleTime: 0 });
}
