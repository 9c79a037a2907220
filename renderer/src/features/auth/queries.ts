import { useQuery } from '@tanstack/react-query';
import { data, publicApi } from '../../api/client.ts';

export const authKeys = {
  status: ['status'] as const,
};

/** The server's name and what a visitor must do first (set up, sign in). */
export function useServerStatus() {
  return useQuery({ queryKey: authKeys.status, queryFn: () => data(publicApi.GET('/status')), staleTime: 60_000 });
}

/** What this device calls itself in the owner's list of devices. */
export function deviceDescription(): { device_name: string; platform: string } {
  const ua = navigator.userAgent;
  const platform = /Android/i.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/i.test(ua)
      ? 'iOS'
      : /Mac OS X/i.test(ua)
        ? 'macOS'
        : /Windows/i.test(ua)
          ? 'Windows'
          : /Linux/i.test(ua)
            ? 'Linux'
            : 'Web';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  return { device_name: `${browser} on ${platform}`, platform };
}
