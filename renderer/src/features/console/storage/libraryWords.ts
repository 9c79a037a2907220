/** A storage place (library) in the family's words: what it is, and whether it is there. */

export const LIBRARY_KINDS: Record<string, string> = {
  internal: 'Inside this PC',
  external: 'A drive plugged into this PC',
  network: 'A drive on the network',
  pooled: 'Several drives together',
};

export const LIBRARY_STATUS: Record<string, string> = {
  online: 'Connected',
  offline: 'Not connected',
  ejected: 'Ejected: safe to unplug',
};
