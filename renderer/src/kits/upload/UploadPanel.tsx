import { Fragment, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { ProgressBar } from '../../ui/Notice.tsx';
import { useKeepOpenSaidElsewhere } from './keep-open.ts';
import { panelLine } from './line.ts';
import { LongNamesDialog } from './LongNamesDialog.tsx';
import { uploadQueue, type ClashQuestion, type UploadItem } from './queue.ts';
import { Rate } from './rate.ts';
import { useUploads } from './useUploads.ts';
import './upload.css';

/** Rows the open list shows at most: a camera roll of 2,000 is told by its counts, not drawn whole. */
const ROWS_SHOWN = 50;

/**
 * The uploads of this tab, out of the way: one line at the bottom ("Uploading 56 photos · 12 of
 * 56 · 3 min left" over a thin bar) that opens on a tap into the list of files, with what went
 * wrong and why.
 */
export function UploadPanel() {
  const { items, alreadyHere, clash, longNames, offline } = useUploads();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const panel = useRef<HTMLElement>(null);
  const visible = items.filter((item) => item.status !== 'cancelled');
  const moving = visible.some((item) => item.status === 'sending' || item.status === 'queued');
  const sent = visible.reduce((sum, item) => sum + item.sent, 0);
  const bytesPerSecond = useRate(sent, moving && !offline);
  const line = panelLine({ items: visible, alreadyHere, offline, bytesPerSecond });
  const saidElsewhere = useKeepOpenSaidElsewhere();
  const shown = visible.length > 0 || alreadyHere > 0 || clash !== null;
  useRoomBelowPage(panel, shown && !longNames);
  if (longNames) return <LongNamesDialog question={longNames} />;
  if (!shown) return null;

  return (
    <section className={open ? 'upload-panel upload-panel-open' : 'upload-panel'} aria-label="Uploads" ref={panel}>
      <div className="upload-line">
        <button type="button" className="upload-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
          <span className="upload-line-text">
            {/* Each part stays whole, its " ·" with it: a narrow screen breaks the line between parts. */}
            <span className="upload-part">
              <strong aria-live="polite">{line.headline}</strong>
              {line.details.length > 0 && ' ·'}
            </span>
            {line.details.map((detail, index) => (
              <Fragment key={detail}>
                {' '}
                <span className="upload-part upload-detail">
                  {detail}
                  {index < line.details.length - 1 && ' ·'}
                </span>
              </Fragment>
            ))}
          </span>
          <span className="upload-chevron">
            <Icon name="chevron" />
          </span>
        </button>
        {line.settled && (
          <IconButton
            icon="close"
            label="Close uploads"
            onClick={() => {
              setOpen(false);
              uploadQueue.clearFinished();
            }}
          />
        )}
      </div>
      {line.long && !saidElsewhere && <p className="upload-keep-open">Keep Hearth open until they are sent.</p>}
      {line.progress !== null && <ProgressBar value={line.progress} label="All uploads" />}
      <div id={listId} className="upload-list" hidden={!open}>
        {open && <UploadList items={visible} />}
      </div>
      {clash && <ClashDialog clash={clash} />}
    </section>
  );
}

/** What went wrong first (with why), then what is under way, then what waits, then what arrived. */
function UploadList({ items }: { items: UploadItem[] }) {
  const order = (item: UploadItem) =>
    item.status === 'failed' ? 0 : item.status === 'queued' ? 2 : item.status === 'done' ? 3 : /* sending, paused, held, offline */ 1;
  const sorted = [...items].sort((a, b) => order(a) - order(b));
  const rows = sorted.slice(0, ROWS_SHOWN);
  const rest = sorted.slice(ROWS_SHOWN);
  const restWaiting = rest.filter((item) => item.status !== 'done').length;
  return (
    <>
      <ul aria-label="Each upload">
        {rows.map((item) => (
          <UploadRow key={item.key} item={item} />
        ))}
      </ul>
      {rest.length > 0 && (
        <p className="muted upload-more">
          And {rest.length.toLocaleString()} more
          {restWaiting > 0 && restWaiting < rest.length
            ? ` (${restWaiting.toLocaleString()} waiting)`
            : restWaiting === rest.length
              ? ' waiting'
              : ' uploaded'}
          .
        </p>
      )}
    </>
  );
}

function ClashDialog({ clash }: { clash: ClashQuestion }) {
  const count = clash.names.length;
  const title = count === 1 ? `“${clash.names[0]}” is already here` : `${count.toLocaleString()} files with these names are already here`;
  return (
    <Dialog title={title} onClose={() => clash.answer('skip')}>
      <p className="dialog-text">
        {count === 1
          ? 'A different file with the same name is in this folder.'
          : `Different files with the same names are in this folder (${clash.names.slice(0, 3).join(', ')}${count > 3 ? '…' : ''}).`}{' '}
        What should happen?
      </p>
      <ul className="menu choices">
        <li>
          <button type="button" onClick={() => clash.answer('keep-both')}>
            Keep both (the new {count === 1 ? 'one gets' : 'ones get'} a number)
          </button>
        </li>
        <li>
          <button type="button" onClick={() => clash.answer('replace')}>
            Replace (the old {count === 1 ? 'one stays' : 'ones stay'} as an earlier version)
          </button>
        </li>
        <li>
          <button type="button" onClick={() => clash.answer('skip')}>
            Skip {count === 1 ? 'it' : 'them'}
          </button>
        </li>
      </ul>
    </Dialog>
  );
}

function UploadRow({ item }: { item: UploadItem }) {
  const state = rowState(item);
  return (
    <li className={`upload-row upload-${item.status}`}>
      <div className="upload-row-text">
        <span className="upload-name" title={item.name}>
          {item.name}
        </span>
        <span className="muted">{state}</span>
      </div>
      {item.status !== 'failed' && <ProgressBar value={item.size ? item.sent / item.size : 1} label={`Upload of ${item.name}`} />}
      <div className="upload-actions">
        {(item.status === 'sending' || item.status === 'queued' || item.status === 'offline') && (
          <IconButton icon="pause" label={`Pause ${item.name}`} onClick={() => uploadQueue.pause(item.key)} />
        )}
        {(item.status === 'paused' || item.status === 'failed') && item.retryable && (
          <IconButton icon="play" label={`Resume ${item.name}`} onClick={() => uploadQueue.resume(item.key)} />
        )}
        {item.status !== 'done' && (
          <IconButton
            icon="close"
            label={`${item.retryable ? 'Cancel' : 'Dismiss'} ${item.name}`}
            onClick={() => uploadQueue.cancel(item.key)}
          />
        )}
      </div>
    </li>
  );
}

function rowState(item: UploadItem): string {
  switch (item.status) {
    case 'done':
      return 'Done';
    case 'failed':
      return item.error ?? 'Not uploaded';
    case 'paused':
      return 'Paused';
    case 'held':
      return item.error ?? 'Waiting for space on Hearth';
    case 'offline':
      return 'Waiting for the connection';
    case 'queued':
      return 'Waiting';
    default:
      return item.stalled ? 'Waiting for the connection' : `${Math.floor((item.sent / Math.max(1, item.size)) * 100)}%`;
  }
}

/**
 * Bytes per second lately, sampled every second while bytes should be moving; 0 otherwise, and
 * started afresh after a pause or a cut, so no speed from before is shown as if it were now.
 */
function useRate(sent: number, moving: boolean): number {
  const rate = useRef(new Rate());
  const latest = useRef(sent);
  const [perSecond, setPerSecond] = useState(0);
  useEffect(() => {
    latest.current = sent;
  }, [sent]);
  useEffect(() => {
    if (!moving) return;
    const own = rate.current;
    const sample = () => {
      own.add(performance.now(), latest.current);
      setPerSecond(own.perSecond());
    };
    const timer = setInterval(sample, 1_000);
    return () => {
      clearInterval(timer);
      own.reset();
    };
  }, [moving]);
  return moving ? perSecond : 0;
}

/**
 * The page keeps room below its content for the panel (its height, as a CSS variable the
 * layout reads), so the last rows can be scrolled out from under it.
 */
function useRoomBelowPage(panel: React.RefObject<HTMLElement | null>, shown: boolean): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const element = panel.current;
    if (!shown || !element) {
      root.style.removeProperty('--upload-panel-h');
      return;
    }
    const observer = new ResizeObserver(() => root.style.setProperty('--upload-panel-h', `${Math.ceil(element.offsetHeight)}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--upload-panel-h');
    };
  }, [panel, shown]);
}
