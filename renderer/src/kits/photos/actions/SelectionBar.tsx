import { IconButton } from '../../../ui/Button.tsx';
import { ActionButton, type Action } from './ActionButton.tsx';
import './photo-actions.css';

/**
 * The bar of a selection that is not Photos' (Private's): the same look and place as Photos' own
 * (the count at the top; on a phone the actions at the bottom, within a thumb's reach), with only
 * the page's actions. Drawn while selecting.
 */
export function SelectionBar({
  selection,
  label,
  empty,
  actions,
}: {
  selection: { active: boolean; count: number; clear(): void };
  /** The toolbar's accessible name ("Selected in Private"). */
  label: string;
  /** The title while nothing is chosen yet ("Select photos or files"). */
  empty: string;
  actions: Action[];
}) {
  if (!selection.active) return null;
  return (
    <div className="topbar selection-bar photo-selection-bar" role="toolbar" aria-label={label}>
      <IconButton icon="close" label="Stop selecting" onClick={selection.clear} />
      <h1 aria-live="polite">{selection.count === 0 ? empty : `${selection.count.toLocaleString()} selected`}</h1>
      <div className="photo-actions">
        {actions.map((action) => (
          <ActionButton key={action.label} action={{ ...action, disabled: action.disabled || selection.count === 0 }} />
        ))}
      </div>
    </div>
  );
}
