import { Icon } from '../../ui/Icon.tsx';

/** What just happened on a person's page, said plainly, with Undo where it can be undone. */
export interface Said {
  text: string;
  undo?: (() => void) | undefined;
}

export function PersonToast({ said, onDismiss }: { said: Said; onDismiss: () => void }) {
  return (
    <div className="person-toast" role="status">
      <span>{said.text}</span>
      {said.undo && (
        <button
          type="button"
          className="person-toast-action"
          onClick={() => {
            said.undo?.();
            onDismiss();
          }}
        >
          Undo
        </button>
      )}
      <button type="button" className="person-toast-close" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
