import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useUpdatePerson } from './person-queries.ts';
import { usePeople } from './queries.ts';
import { personName } from './words.ts';
import { PersonOpen } from './PersonOpen.tsx';
import './people.css';

/** The people the family hid: not on People, not found by search, until shown again. */
export function HiddenPeoplePage() {
  const people = usePeople();
  const update = useUpdatePerson();
  const [said, setSaid] = useState<string | null>(null);
  const hidden = people.data?.items.filter((p) => p.hidden) ?? [];
  return (
    <div className="people-page">
      <div className="topbar">
        <Link className="btn btn-quiet btn-icon" to="/people" aria-label="Back to People" title="Back to People">
          <Icon name="back" />
        </Link>
        <h1>Hidden people</h1>
      </div>
      <p className="muted">People you hid are not on People and are not found by search. Their photos stay where they are.</p>
      {people.isPending && <Spinner label="Loading people" />}
      {people.isError && <Notice tone="error">{people.error.message}</Notice>}
      {said && (
        <p className="people-said" role="status">
          {said}
        </p>
      )}
      {update.error && <Notice tone="error">{update.error.message}</Notice>}
      {people.isSuccess && hidden.length === 0 && <p>Nobody is hidden.</p>}
      {hidden.length > 0 && (
        <ul className="people-grid" aria-label="Hidden people">
          {hidden.map((person) => (
            <li key={person.id} className="person-card">
              <PersonOpen person={person} />
              <Button
                disabled={update.isPending}
                aria-label={`Show ${person.name ?? 'this person'} again`}
                onClick={() =>
                  update.mutate({ id: person.id, hidden: false }, { onSuccess: () => setSaid(`${personName(person)} is back on People.`) })
                }
              >
                Show again
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
