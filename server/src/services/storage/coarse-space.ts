const GIB = 1024 ** 3;

export interface Space {
  used: number;
  free: number;
  total: number;
}

/**
 * A library's space as a member sees it: free space rounded down to a whole step (1 GiB, or
 * 1 % of the drive on drives over 100 GiB), used space the rest. Exact figures moved with
 * every upload, anyone's: a member watching them learned when the others uploaded, how much,
 * and (since identical bytes are stored once) whether the file they just sent was already
 * someone else's. A step hides a photo or a film; "about 40 GB free" is what a member needs.
 */
export function coarseSpace(space: Space): Space {
  if (space.total <= 0) return space;
  const step = spaceStep(space.total);
  const free = Math.floor(space.free / step) * step;
  return { total: space.total, free, used: Math.max(0, space.total - free) };
}

export function spaceStep(total: number): number {
  return Math.max(GIB, Math.ceil(total / 100 / GIB) * GIB);
}
