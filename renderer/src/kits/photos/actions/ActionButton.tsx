import { Dialog } from '../../../ui/Dialog.tsx';
import { Icon, type IconName } from '../../../ui/Icon.tsx';

/** An action of the page's own (an album's Take out, Use as cover), beside the shared ones. */
export interface PageAction {
  label: string;
  /** What a phone's bottom bar shows under the icon, when the label is too long for it. */
  short?: string;
  icon: IconName;
  onClick: () => void;
  disabled?: boolean;
  /** In the bar itself, or under More. */
  place: 'bar' | 'more';
  /** The short words on a computer too (the name stays whole). */
  brief?: boolean;
}

export interface Action extends PageAction {
  danger?: boolean;
}

/** Icon and words; the words shrink to `short` under the icon in a phone's bottom bar, the name stays whole. */
export function ActionButton({ action }: { action: Action }) {
  return (
    <button
      type="button"
      className={['btn', 'photo-action', action.danger && 'photo-action-danger'].filter(Boolean).join(' ')}
      aria-label={action.label}
      title={action.label}
      disabled={action.disabled}
      onClick={action.onClick}
    >
      <Icon name={action.icon} />
      <span className="photo-action-long" aria-hidden="true">
        {action.brief ? (action.short ?? action.label) : action.label}
      </span>
      <span className="photo-action-short" aria-hidden="true">
        {action.short ?? action.label}
      </span>
    </button>
  );
}

/** The rarer actions, in a menu: choosing one closes it first. */
export function MoreActions({ title, actions, onClose }: { title: string; actions: Action[]; onClose: () => void }) {
  return (
    <Dialog title={title} onClose={onClose}>
      <ul className="menu" aria-label="More actions">
        {actions.map((action) => (
          <li key={action.label}>
            <button
              type="button"
              className={action.danger ? 'danger' : undefined}
              disabled={action.disabled}
              onClick={() => {
                onClose();
                action.onClick();
              }}
            >
              <Icon name={action.icon} />
              {action.label}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
