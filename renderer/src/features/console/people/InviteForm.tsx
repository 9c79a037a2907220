import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { formatDate } from '../../../ui/format.ts';
import { CopyField } from '../../../ui/CopyField.tsx';
import { consoleKeys } from '../keys.ts';
import { QrImage } from '../QrImage.tsx';
import { type Invite } from './queries.ts';
import './people.css';

const DAY = 86_400_000;
export const EXPIRY_CHOICES = [
  { value: '1', label: '1 day' },
  { value: '7', label: '1 week' },
  { value: '30', label: '1 month' },
  { value: 'never', label: 'No end date' },
];

/** Makes an invite: who it is for, what they may do, how long it works. Then shows its link and QR code. */
export function InviteForm({ onDone }: { onDone?: () => void }) {
  const queryClient = useQueryClient();
  const roleName = useId();
  const expiryId = useId();
  const [label, setLabel] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [expiry, setExpiry] = useState('7');
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST('/admin/invites', {
          body: {
            role,
            ...(label.trim() ? { label: label.trim() } : {}),
            ...(expiry === 'never' ? {} : { expires_at: Date.now() + Number(expiry) * DAY }),
          },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.invites }),
  });

  if (create.data) {
    return (
      <InviteResult
        invite={create.data}
        onAnother={() => {
          create.reset();
          setLabel('');
        }}
        onDone={onDone}
      />
    );
  }
  return (
    <form
      className="invite-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <Field
        label="Who is it for?"
        hint="Only you see this, e.g. Grandma."
        maxLength={64}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <fieldset className="choice">
        <legend>They will be</legend>
        <label>
          <input type="radio" name={roleName} checked={role === 'member'} onChange={() => setRole('member')} /> A family member
          <span className="hint">Their own files and photos, and what others share with them.</span>
        </label>
        <label>
          <input type="radio" name={roleName} checked={role === 'admin'} onChange={() => setRole('admin')} /> An owner too
          <span className="hint">Can also approve phones, invite people and manage drives.</span>
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={expiryId}>The invite works for</label>
        <select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      {create.isError && <Notice tone="error">{create.error.message}</Notice>}
      <Button type="submit" variant="primary" icon="add" disabled={create.isPending}>
        {create.isPending ? 'Making the invite…' : 'Make an invite'}
      </Button>
    </form>
  );
}

/** The link exists only now (the server keeps the code hashed): show it with its QR code. */
export function InviteResult({ invite, onAnother, onDone }: { invite: Invite; onAnother: () => void; onDone?: (() => void) | undefined }) {
  const who = invite.label ?? 'them';
  const url = invite.url ?? '';
  return (
    <div className="invite-result">
      <Notice>
        Invite ready. Send this link to {who}, or let them point their phone's camera at the code. It works once
        {invite.expires_at ? `, until ${formatDate(invite.expires_at)}` : ''}.
      </Notice>
      <div className="qr-and-text">
        <QrImage text={url} label={`QR code of the invite link for ${who}`} />
        <div className="qr-text">
          <CopyField label="Invite link" value={url} />
          <p className="muted">You see this link only now. If it gets lost, make a new invite.</p>
        </div>
      </div>
      <div className="row">
        <Button onClick={onAnother}>Invite someone else</Button>
        {onDone && (
          <Button variant="primary" onClick={onDone}>
            Done
          </Button>
        )}
      </div>
    </div>
  );
}
