import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useNamePerson, usePeople, type Person } from './queries.ts';
import { useLivePeople } from './useLivePeople.ts';
import { photoCount } from './words.ts';
import { PersonOpen } from './PersonOpen.tsx';
import './people.css';

const MAX_NAME = 100;

/**
 * People: the faces this PC found in the family member's own photos, grouped, most photos
 * first. Naming someone lets Photos' search find them ("grandma").
 */
export function PeoplePage() {
  const people = usePeople();
  useLivePeople();
  const [naming, setNaming] = useState<Person | null>(null);
  const shown = people.data?.items.filter((p) => !p.hidden) ?? [];
  const hidden = people.data?.items.filter((p) => p.hidden).length ?? 0;
  const waiting = people.data?.progress.waiting ?? 0;
  return (
    <div className="people-page">
      <div className="topbar">
        <h1>People</h1>
      </div>
      {people.isPending && <Spinner label="Loading people" />}
      {people.isError && <Notice tone="error">{people.error.message}</Notice>}
      {waiting > 0 && (
        <p className="muted" role="status">
          Looking for faces: {waiting === 1 ? '1 photo' : `${waiting} photos`} to go. This PC does it by itself; nothing leaves the house.
        </p>
      )}
      {people.isSuccess && shown.length === 0 && waiting === 0 && (
        <p className="muted">When your photos have faces in them, the people in them show here.</p>
      )}
      {shown.length > 0 && (
        <ul className="people-grid" aria-label="People">
          {shown.map((person) => (
            <li key={person.id} className="person-card">
              <PersonOpen person={person} />
              <Button
                onClick={() => setNaming(person)}
                aria-label={person.name ? `Rename ${person.name}` : `Name this person (${photoCount(person.photo_count)})`}
              >
                {person.name ? 'Rename' : 'Add a name'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <p className="people-hidden-link">
          <Link to="/people/hidden">Hidden people ({hidden})</Link>
        </p>
      )}
      {naming && <NameDialog person={naming} onClose={() => setNaming(null)} />}
    </div>
  );
}

function NameDialog({ person, onClose }: { person: Person; onClose: () => void }) {
  const [name, setName] = useState(person.name ?? '');
  const save = useNamePerson();
  const trimmed = name.trim();
  const tooLong = [...trimmed].length > MAX_NAME;
  return (
    <Dialog title={person.name ? `Rename ${person.name}` : 'Name this person'} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          save.mutate({ id: person.id, name: trimmed }, { onSuccess: onClose });
        }}
      >
        <Field
          label="Name"
          value={name}
          placeholder="Grandma"
          onChange={(event) => setName(event.target.value)}
          autoFocus
          error={tooLong ? `A name is at most ${MAX_NAME} letters.` : null}
        />
        {save.error && <Notice tone="error">{save.error.message}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={save.isPending || trimmed === '' || tooLong}>
            Save name
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
