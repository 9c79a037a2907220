import { Dialog } from '../../ui/Dialog.tsx';
import { middleOut } from '../../ui/middleOut.ts';
import type { LongNamesQuestion } from './queue.ts';
import './long-names.css';

/** Shown before sending: a name over the limit would be refused, so the person may send it under a shorter one. */
export function LongNamesDialog({ question }: { question: LongNamesQuestion }) {
  const count = question.names.length;
  const shown = question.names.slice(0, 3);
  return (
    <Dialog
      title={count === 1 ? 'This file’s name is too long' : `${count.toLocaleString()} files have names that are too long`}
      onClose={() => question.answer('skip')}
    >
      <p className="dialog-text">
        A name can hold up to 255 plain letters (fewer with accents or emoji). Hearth can send {count === 1 ? 'it' : 'them'} with the end of
        the name cut off, keeping the kind of file ({extensionsOf(question.names)}):
      </p>
      <ul className="long-names" aria-label="New names">
        {shown.map(({ name, shorter }) => (
          <li key={name}>
            <span className="long-name" title={shorter}>
              {middleOut(shorter, 90)}
            </span>
          </li>
        ))}
      </ul>
      {count > shown.length && <p className="muted">…and {(count - shown.length).toLocaleString()} more.</p>}
      <ul className="menu choices">
        <li>
          <button type="button" onClick={() => question.answer('shorten')}>
            Shorten the {count === 1 ? 'name' : 'names'} and upload
          </button>
        </li>
        <li>
          <button type="button" onClick={() => question.answer('skip')}>
            Don’t upload {count === 1 ? 'it' : 'them'}
          </button>
        </li>
      </ul>
    </Dialog>
  );
}

function extensionsOf(names: { shorter: string }[]): string {
  const kinds = [...new Set(names.map(({ shorter }) => /\.[^.\s]{1,15}$/u.exec(shorter)?.[0] ?? '').filter(Boolean))];
  return kinds.length === 0 ? 'as far as it has one' : kinds.slice(0, 3).join(', ');
}
