import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import type { ViewerItem } from '../viewer/index.ts';
import { instantOf, turned, usePhotoEdits, wallClock } from './edits.ts';

/**
 * Edit the photo on screen: turn it a quarter at a time (at once), correct the day, time and
 * place it was taken (saved together), or go back to what the file says. Drawn over the viewer
 * as its details panel is; the file itself is never changed, and a download is the original.
 */
export function PhotoEditPanel({ item, onClose }: { item: ViewerItem; onClose: () => void }) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { state, edit, revert } = usePhotoEdits(item.id);
  const clock = wallClock(item.taken_at, item.taken_offset);
  const [date, setDate] = useState(clock.date);
  const [time, setTime] = useState(clock.time);
  const [place, setPlace] = useState(item.place?.town ?? '');
  const [said, setSaid] = useState<string | null>(null);
  const rotation = state.data?.rotation ?? item.rotation ?? 0;
  const busy = edit.isPending || revert.isPending;
  const failure = edit.error?.message ?? revert.error?.message ?? null;
  const edited = Boolean(state.data && (state.data.rotation || state.data.taken_edited || state.data.place_edited));

  const turn = (way: -1 | 1) => {
    setSaid(null);
    edit.mutate({ rotation: turned(rotation, way) }, { onSuccess: () => setSaid(way < 0 ? 'Turned left.' : 'Turned right.') });
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaid(null);
    const body: { taken_at?: number; place?: { name: string } | null } = {};
    const when = instantOf(date, time, item.taken_offset);
    if (when !== null && (date !== clock.date || time !== clock.time)) body.taken_at = when;
    if (place.trim() !== (item.place?.town ?? '')) body.place = place.trim() ? { name: place.trim() } : null;
    if (Object.keys(body).length === 0) return setSaid('Nothing to save: change the day, the time or the place first.');
    edit.mutate(body, { onSuccess: () => setSaid('Saved. Photos shows it by its new day and place.') });
  };

  const backToFile = () => {
    setSaid(null);
    revert.mutate(undefined, {
      onSuccess: (answer) => {
        const back = wallClock(answer.node.taken_at, answer.node.taken_offset);
        setDate(back.date);
        setTime(back.time);
        setPlace(answer.node.place?.town ?? '');
        setSaid('Back to the photo as its file has it.');
      },
    });
  };

  return (
    <aside className="viewer-info photo-edit" aria-labelledby={titleId}>
      <header className="viewer-info-head">
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          Edit photo
        </h2>
        <IconButton icon="close" label="Close editing" onClick={onClose} />
      </header>
      <p className="muted photo-edit-note">Changes are kept beside the original file, which stays as it is.</p>
      <div className="photo-edit-turn" role="group" aria-label="Turn">
        <Button icon="rotateLeft" onClick={() => turn(-1)} disabled={busy}>
          Turn left
        </Button>
        <Button icon="rotateRight" onClick={() => turn(1)} disabled={busy}>
          Turn right
        </Button>
      </div>
      <form className="photo-edit-form" onSubmit={save}>
        <Field
          label="Day taken"
          type="date"
          value={date}
          max={new Date().toISOString().slice(0, 10)}
          onChange={(e) => setDate(e.target.value)}
        />
        <Field label="Time taken" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
        <Field label="Place" hint="A town’s name, like Lisbon" value={place} maxLength={200} onChange={(e) => setPlace(e.target.value)} />
        <Button type="submit" variant="primary" disabled={busy}>
          Save
        </Button>
      </form>
      {edited && (
        <Button variant="quiet" icon="restore" onClick={backToFile} disabled={busy}>
          Back to the original
        </Button>
      )}
      <div role="status" className="link-status">
        {said}
      </div>
      {failure && <Notice tone="error">{failure}</Notice>}
    </aside>
  );
}
