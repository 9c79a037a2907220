import { useDeferredValue, useState } from 'react';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { useFindPeople, useGrantMutations, useGrants, useInheritedGrants, type Role } from './queries.ts';

const ROLE_WORDS: Record<Role, string> = { viewer: 'Can view', editor: 'Can edit' };

/**
 * Who in the family has access: the owner, people given access here, and (for the owner)
 * people who have it through a folder above. The owner adds people, changes what they may
 * do, and removes them; anyone else sees the list.
 */
export function PeoplePanel({ node }: { node: Node }) {
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const isOwner = node.owner_id === me;
  const grants = useGrants(node.id);
  const inherited = useInheritedGrants(node.id, isOwner);
  const everyone = useFindPeople('');
  const { grant, remove } = useGrantMutations(node.id);
  const [said, setSaid] = useState<string | null>(null);
  const ownerName = isOwner ? 'You' : (everyone.data?.find((person) => person.id === node.owner_id)?.name ?? 'The owner');
  const direct = grants.data ?? [];
  const failure = grant.error?.message ?? remove.error?.message ?? null;

  return (
    <div className="people-panel">
      <ul className="people-list" aria-label="People with access">
        <li className="person">
          <Avatar name={ownerName} />
          <span className="person-name">{ownerName}</span>
          <span className="person-role">Owner</span>
        </li>
        {direct.map((person) => (
          <li key={person.user_id} className="person">
            <Avatar name={person.name} />
            <span className="person-name">{person.user_id === me ? `${person.name} (you)` : person.name}</span>
            {isOwner ? (
              <>
                <select
                  className="person-role-select"
                  aria-label={`What ${person.name} can do`}
                  value={person.role}
                  disabled={grant.isPending}
                  onChange={(event) => {
                    const role = event.target.value as Role;
                    grant.mutate(
                      { userId: person.user_id, role },
                      {
                        onSuccess: () =>
                          setSaid(`${person.name} ${role === 'editor' ? 'can now add and change files here' : 'can now only look'}.`),
                      },
                    );
                  }}
                >
                  <option value="viewer">{ROLE_WORDS.viewer}</option>
                  <option value="editor">{ROLE_WORDS.editor}</option>
                </select>
                <IconButton
                  icon="close"
                  label={`Remove ${person.name}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(person.user_id, { onSuccess: () => setSaid(`${person.name} no longer has access.`) })}
                />
              </>
            ) : (
              <span className="person-role">{ROLE_WORDS[person.role]}</span>
            )}
          </li>
        ))}
        {inherited.map((person) => (
          <li key={`${person.folder.id}-${person.user_id}`} className="person">
            <Avatar name={person.name} />
            <span className="person-name">
              {person.name}
              <span className="person-via">Through the folder “{person.folder.name}”</span>
            </span>
            <span className="person-role">{ROLE_WORDS[person.role]}</span>
          </li>
        ))}
      </ul>
      {isOwner && grants.isSuccess && direct.length === 0 && inherited.length === 0 && (
        <p className="muted">Only you can see “{node.name}”.</p>
      )}
      {grants.isPending && <Spinner label="Loading who has access" />}
      {grants.isError && <Notice tone="error">{grants.error.message}</Notice>}
      <div role="status" className="link-status">
        {said}
      </div>
      {failure && <Notice tone="error">{failure}</Notice>}
      {isOwner ? (
        <AddPerson
          exclude={new Set([me, node.owner_id, ...direct.map((person) => person.user_id)])}
          busy={grant.isPending}
          onAdd={(person, role) =>
            grant.mutate(
              { userId: person.id, role },
              {
                onSuccess: () =>
                  setSaid(
                    `${person.name} can now ${role === 'editor' ? 'see, add and change' : 'see'} “${node.name}”. It appears under Shared for them.`,
                  ),
              },
            )
          }
        />
      ) : (
        <p className="muted">Only {ownerName === 'The owner' ? 'the owner' : ownerName} can change who has access.</p>
      )}
    </div>
  );
}

function AddPerson({
  exclude,
  busy,
  onAdd,
}: {
  exclude: Set<string>;
  busy: boolean;
  onAdd: (person: { id: string; name: string }, role: Role) => void;
}) {
  const [query, setQuery] = useState('');
  const [role, setRole] = useState<Role>('viewer');
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
          <select id="new-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            <option value="viewer">View</option>
            <option value="editor">View, add and change</option>
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

function Avatar({ name }: { name: string }) {
  const initial = [...name.trim()][0]?.toUpperCase();
  return (
    <span className="avatar" aria-hidden="true">
      {initial ?? <Icon name="person" />}
    </span>
  );
}
