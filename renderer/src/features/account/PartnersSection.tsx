import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';
import { personNamesQuery } from '../../api/queries.ts';
import type { Answer } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { accountKeys, usePartnerShares } from './queries.ts';

type PartnerShare = Answer<'/partner-shares', 'get'>['items'][number];

/** "1 January 2023": the day as the family says it (the day itself, whatever this device's zone). */
function dayWords(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "all your photos" / "your photos taken from 3 May 2024"; `whose` is "your" or "their". */
const fromWords = (share: PartnerShare, whose: string) =>
  share.since ? `${whose} photos taken from ${dayWords(share.since)}` : `all ${whose} photos`;

/**
 * Partner sharing: my photos and videos shown in a family member's Photos (Everyone's), all of
 * them or those taken from a day on, for as long as I like; and who shows theirs to me. Both
 * lists follow the server's events, so a share started on another phone appears here at once.
 */
export function PartnersSection({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const shares = usePartnerShares();
  const people = useQuery(personNamesQuery);
  const given = (shares.data ?? []).filter((share) => share.owner.id === userId);
  const received = (shares.data ?? []).filter((share) => share.partner.id === userId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.partners });
  const stop = useMutation({
    mutationFn: (partnerId: string) => data(api.DELETE('/partner-shares/{userId}', { params: { path: { userId: partnerId } } })),
    onSettled: refresh,
  });
  useEffect(
    () =>
      events.on((message) => {
        if (message.type === 'partner_share.changed' || message.type === 'partner_share.deleted') void refresh();
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient],
  );

  return (
    <section className="card section" aria-labelledby="partners-title">
      <h2 id="partners-title">Share my photos with…</h2>
      <p className="muted">
        Someone you share with sees your photos and videos in their Photos, under Everyone’s. They can look at them and download them, never
        change or delete them. Your folders and other files stay yours.
      </p>
      {shares.isPending && <Spinner label="Loading who you share with" />}
      {shares.isError && <Notice tone="error">{shares.error.message}</Notice>}
      {given.length > 0 && (
        <ul className="device-list" aria-label="People you share your photos with">
          {given.map((share) => (
            <li key={share.partner.id} className="device-row">
              <div className="device-text">
                <strong>{share.partner.name}</strong>
                <div className="muted">Sees {fromWords(share, 'your')}</div>
              </div>
              <Button
                disabled={stop.isPending}
                aria-label={`Stop sharing with ${share.partner.name}`}
                onClick={() => stop.mutate(share.partner.id)}
              >
                Stop sharing
              </Button>
            </li>
          ))}
        </ul>
      )}
      {stop.isError && <Notice tone="error">{stop.error.message}</Notice>}
      {shares.isSuccess && (
        <ShareForm
          people={[...(people.data ?? new Map<string, string>())].filter(([id]) => id !== userId)}
          given={given}
          onShared={refresh}
        />
      )}
      <h3 className="partners-heading">Sharing with you</h3>
      {shares.isSuccess && received.length === 0 && <p className="muted">Nobody shares all their photos with you yet.</p>}
      {received.length > 0 && (
        <ul className="device-list" aria-label="People who share their photos with you">
          {received.map((share) => (
            <li key={share.owner.id} className="device-row">
              <div className="device-text">
                <strong>{share.owner.name}</strong>
                <div className="muted">Shares {fromWords(share, 'their')} with you: they are in Photos, under Everyone’s</div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Choosing someone and from when: again for someone already chosen changes the day. */
function ShareForm({ people, given, onShared }: { people: [string, string][]; given: PartnerShare[]; onShared: () => void }) {
  const personId = useId();
  const dayId = useId();
  const whichName = useId();
  const [person, setPerson] = useState('');
  const [which, setWhich] = useState<'all' | 'from'>('all');
  const [day, setDay] = useState('');
  const existing = given.find((share) => share.partner.id === person);
  const share = useMutation({
    mutationFn: () => data(api.POST('/partner-shares', { body: { user_id: person, since: which === 'from' ? day : null } })),
    onSuccess: () => {
      setPerson('');
      setWhich('all');
      setDay('');
      onShared();
    },
  });
  if (people.length === 0) return <p className="muted">Nobody else has an account here yet.</p>;
  return (
    <form
      className="partner-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        share.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={personId}>Family member</label>
        <select id={personId} value={person} required onChange={(event) => setPerson(event.target.value)}>
          <option value="" disabled>
            Choose someone
          </option>
          {people.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="account-choice">
        <legend>Which photos</legend>
        <label>
          <input type="radio" name={whichName} checked={which === 'all'} onChange={() => setWhich('all')} /> All my photos and videos
        </label>
        <label>
          <input type="radio" name={whichName} checked={which === 'from'} onChange={() => setWhich('from')} /> Those taken from a day on
        </label>
      </fieldset>
      {which === 'from' && (
        <div className="field">
          <label htmlFor={dayId}>Taken from</label>
          <input
            id={dayId}
            type="date"
            required
            value={day}
            min="1900-01-01"
            max="9999-12-31"
            onChange={(event) => setDay(event.target.value)}
          />
        </div>
      )}
      {share.isError && <Notice tone="error">{share.error.message}</Notice>}
      <Button type="submit" variant="primary" icon="share" disabled={share.isPending || person === ''}>
        {existing ? 'Change what they see' : 'Share my photos'}
      </Button>
    </form>
  );
}
