import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { IconButton } from './Button.tsx';
import './dialog.css';

/**
 * A modal on the native <dialog>: focus is trapped and restored, Escape closes, the page
 * behind is inert, all by the browser. Render it only while open.
 */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own id: a question asked over another dialog (Take out?) must not be named by the one below.
  const titleId = useId();
  // A layout effect: its cleanup runs while the dialog is still in the page, so close() hands
  // focus back to what opened it (a plain effect's cleanup runs after removal, and focus is lost).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A tap on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog-body">
        <header className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <IconButton icon="close" label="Close" onClick={onClose} />
        </header>
        {children}
      </div>
    </dialog>
  );
}

/** Asks before something that cannot be undone, saying how many things it touches. */
export function ConfirmDialog({
  title,
  message,
  confirm,
  danger,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  message: ReactNode;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="dialog-text">{message}</div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={onConfirm} disabled={busy}>
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
