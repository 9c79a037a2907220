import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import { type Destination } from './queries.ts';

/** When a destination backs up by itself, and how many old backups it keeps. */
export function ScheduleDialog({ destination, onClose }: { destination: Destination; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [nightly, setNightly] = useState(destination.schedule !== null);
  const [time, setTime] = useState(destination.schedule?.daily_at ?? '03:00');
  const [keep, setKeep] = useState({
    last: String(destination.retention.last),
    daily: String(destination.retention.daily),
    weekly: String(destination.retention.weekly),
    monthly: String(destination.retention.monthly),
  });
  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH('/admin/backup/destinations/{id}', {
          params: { path: { id: destination.id } },
          body: {
            schedule: nightly ? { daily_at: time } : null,
            retention: {
              last: Number(keep.last),
              daily: Number(keep.daily),
              weekly: Number(keep.weekly),
              monthly: Number(keep.monthly),
            },
          },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.backups });
      onClose();
    },
  });
  const count = (key: keyof typeof keep, label: string, hint: string, max = 366) => (
    <Field
      label={label}
      hint={hint}
      type="number"
      inputMode="numeric"
      min={0}
      max={max}
      step={1}
      required
      value={keep[key]}
      onChange={(e) => setKeep({ ...keep, [key]: e.target.value })}
    />
  );
  return (
    <Dialog title={`When to back up to ${destination.name}`} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <fieldset className="choice">
          <legend>Back up</legend>
          <label>
            <input type="checkbox" checked={nightly} onChange={(e) => setNightly(e.target.checked)} /> Every night by itself
          </label>
        </fieldset>
        {nightly && (
          <Field
            label="At"
            hint="This PC's time. Pick an hour when the PC is on."
            type="time"
            required
            value={time}
            onChange={(e) => setTime(e.target.value)}
          />
        )}
        <fieldset className="choice">
          <legend>Keep</legend>
          {count('last', 'Latest backups', 'The newest ones, whatever their day: a second backup on one day never replaces the first', 100)}
          {count('daily', 'Daily backups', 'The newest of each of the last days')}
          {count('weekly', 'Weekly backups', 'The newest of each of the last weeks')}
          {count('monthly', 'Monthly backups', 'The newest of each of the last months')}
        </fieldset>
        {save.isError && <Notice tone="error">{save.error.message}</Notice>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
