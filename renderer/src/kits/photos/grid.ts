/** The space between tiles, in a row and between rows (the timeline's and an album's grid). */
export const GAP = 3;

/** Columns for a width: about 4 on a phone, tiles of about 170 px on a wider screen. */
export function columnsFor(width: number): number {
  const target = width < 600 ? 92 : 170;
  return Math.max(3, Math.min(12, Math.round(width / target)));
}
