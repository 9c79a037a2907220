import { IconButton } from '../../ui/Button.tsx';
import type { SortKey, SortOrder } from './queries.ts';

export type Layout = 'list' | 'grid';

/** How the list is sorted (where the view lets the person choose) and laid out. */
export function ListTools({
  sortable,
  sort,
  order,
  layout,
  onSort,
  onLayout,
}: {
  sortable: boolean;
  sort: SortKey;
  order: SortOrder;
  layout: Layout;
  onSort: (sort: SortKey, order: SortOrder) => void;
  onLayout: (layout: Layout) => void;
}) {
  return (
    <div className="list-tools">
      {sortable && (
        <label className="sort">
          <span>Sort by</span>
          <select
            value={`${sort}:${order}`}
            onChange={(e) => {
              const [s, o] = e.target.value.split(':') as [SortKey, SortOrder];
              onSort(s, o);
            }}
          >
            <option value="name:asc">Name</option>
            <option value="updated:desc">Last changed</option>
            <option value="size:desc">Size</option>
            <option value="taken:desc">Date taken</option>
          </select>
        </label>
      )}
      <div className="spacer" />
      <div role="group" aria-label="Layout" className="layout-toggle">
        <IconButton icon="list" label="List" aria-pressed={layout === 'list'} onClick={() => onLayout('list')} />
        <IconButton icon="grid" label="Grid" aria-pressed={layout === 'grid'} onClick={() => onLayout('grid')} />
      </div>
    </div>
  );
}
