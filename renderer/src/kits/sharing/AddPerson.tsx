import { useDeferredValue, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { useFindPeople } from './queries.ts';
import './share.css';

export interface RoleChoice<R extends string> {
  value: R;
  /** What the person may do, as the "They can" list says it. */
  label: string;
}

/**
 * Finding someone of the family by name and adding them with what they may do: the share
 * dialog's People tab, and an album's people.
 */
export function AddPerson<R extends string>({
  exclude,
  busy,
  roles,
  onAdd,
}: {
  exclude: Set<string>;
  busy: boolean;
  /** The first is chosen at first. */
  roles: readonly RoleChoice<R>[];
  onAdd: (person: { id: string; name: string }, role: R) => void;
}) {
  const [query, setQuery] = useState('');
  const [role, setRole] = useState<R>(roles[0]!.value);
  const add = (person: { id: string; name: string }) => {
    onAdd(person, role);
    setQuery('');
  };
  const deferred = useDeferredValue(query.trim());
  const found = useFindPeople(deferred);
  const people = (found.data ?? []).filter((person) => !exclude.has(person.id));
  return (
    <section className="add-person" aria-labelledby="add-person-title">
      <h3 id="add-person-title">Add someone from the family</h3>
      <div className="add-person-fields">
        <div className="field">
          <label htmlFor="find-person">Name</label>
          <input
            id="find-person"
            type="search"
            autoComplete="off"
            placeholder="Type a name"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="new-role">They can</label>
          <select id="new-role" value={role} onChange={(event) => setRole(event.target.value as R)}>
            {roles.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {found.isError && <Notice tone="error">{found.error.message}</Notice>}
      {found.isSuccess && people.length === 0 && (
        <p className="muted">{deferred ? `Nobody else is called “${deferred}”.` : 'Everyone in the family has access already.'}</p>
      )}
      {people.length > 0 && (
        <ul className="people-found" aria-label="Family members">
          {people.map((person) => (
            <li key={person.id}>
              <Avatar name={person.name} />
              <span className="person-name">{person.name}</span>
              <Button icon="add" disabled={busy} aria-label={`Add ${person.name}`} onClick={() => add(person)}>
                Add
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A person's initial in a circle. */
export function Avatar({ name }: { name: string }) {
  const initial = [...name.trim()][0]?.toUpperCase();
  return (
    <span className="avatar" aria-hidden="true">
      {initial ?? <Icon name="person" />}
    </span>
  );
}
