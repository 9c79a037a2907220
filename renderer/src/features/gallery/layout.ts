import type { Month } from './queries.ts';

export const HEADER_PX = 48;
const GAP_PX = 4;

export interface Section {
  month: Month;
  top: number;
  height: number;
  rows: number;
}

export interface Grid {
  columns: number;
  cell: number;
  sections: Section[];
  height: number;
}

/** Where every month goes, from counts alone: the page is as tall as all the photos before any is loaded. */
export function layoutGrid(months: Month[], width: number): Grid {
  const target = width < 600 ? 90 : 170;
  const columns = Math.max(3, Math.floor((width + GAP_PX) / (target + GAP_PX)));
  const cell = (width - GAP_PX * (columns - 1)) / columns;
  let top = 0;
  const sections = months.map((month) => {
    const rows = Math.ceil(month.count / columns);
    const height = HEADER_PX + rows * (cell + GAP_PX);
    const section = { month, top, height, rows };
    top += height;
    return section;
  });
  return { columns, cell, sections, height: top };
}

export function cellPosition(grid: Grid, index: number): { left: number; top: number } {
  const row = Math.floor(index / grid.columns);
  const column = index % grid.columns;
  return { left: column * (grid.cell + GAP_PX), top: HEADER_PX + row * (grid.cell + GAP_PX) };
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

export function monthLabel(month: Month, short = false): string {
  return (short ? shortFormat : monthFormat).format(new Date(month.start));
}
