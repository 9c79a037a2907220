/** Where a computer finds this Hearth as a drive, worked out from the address the app was opened at. */
export interface DriveAddress {
  /** The web app's own address with /dav/: what Finder, rclone and Cyberduck take. */
  url: string;
  /** The same drive at https:// (Hearth answers both on one port): what Windows asks for. */
  httpsUrl: string;
  /** GNOME Files' spelling: davs:// for https, dav:// for http. */
  filesUrl: string;
  /** Over https: the password travels encrypted, and Windows signs in without a change. */
  secure: boolean;
  /** Opened at localhost or 127.0.0.1 (the desktop window): another computer cannot reach this address. */
  thisComputerOnly: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function driveAddress(origin: string): DriveAddress {
  const at = new URL(origin);
  const url = `${at.origin}/dav/`;
  const secure = at.protocol === 'https:';
  return {
    url,
    httpsUrl: secure ? url : `https://${at.host}/dav/`,
    filesUrl: `${secure ? 'davs' : 'dav'}://${at.host}/dav/`,
    secure,
    thisComputerOnly: LOOPBACK.test(at.hostname),
  };
}

/** A drive password's last use as the list says it: people look for the one they never used. */
export function lastUseWords(lastUsedAt: number | null, ago: (ms: number) => string): string {
  return lastUsedAt === null ? 'Never used' : `Last used ${ago(lastUsedAt)}`;
}
