import { useState } from 'react';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AddPerson, Avatar } from './AddPerson.tsx';
import { PeopleList } from './PeopleList.tsx';
import { useFindPeople, useGrantMutations, useGrants, useInheritedGrants, type Role } from './queries.ts';

const ROLE_WORDS: Record<Role, string> = { viewer: 'Can view', editor: 'Can edit' };
const ROLE_CHOICES = [
  { value: 'viewer', label: 'View' },
  { value: 'editor', label: 'View, add and change' },
] as const;

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
    <PeopleList
      label="People with access"
      owner={{ name: ownerName, text: ownerName }}
      people={direct}
      me={me}
      manage={isOwner}
      roleWords={ROLE_WORDS}
      roleBusy={grant.isPending}
      onRole={(person, role) =>
        grant.mutate(
          { userId: person.user_id, role },
          {
            onSuccess: () => setSaid(`${person.name} ${role === 'editor' ? 'can now add and change files here' : 'can now only look'}.`),
          },
        )
      }
      removeLabel={(person) => `Remove ${person.name}`}
      removeBusy={remove.isPending}
      onRemove={(person) => remove.mutate(person.user_id, { onSuccess: () => setSaid(`${person.name} no longer has access.`) })}
      more={inherited.map((person) => (
        <li key={`${person.folder.id}-${person.user_id}`} className="person">
          <Avatar name={person.name} />
          <span className="person-name">
            {person.name}
            <span className="person-via">Through the folder “{person.folder.name}”</span>
          </span>
          <span className="person-role">{ROLE_WORDS[person.role]}</span>
        </li>
      ))}
      notes={
        <>
          {isOwner && grants.isSuccess && direct.length === 0 && inherited.length === 0 && (
            <p className="muted">Only you can see “{node.name}”.</p>
          )}
          {grants.isPending && <Spinner label="Loading who has access" />}
          {grants.isError && <Notice tone="error">{grants.error.message}</Notice>}
        </>
      }
      said={said}
      failure={failure}
      footer={
        isOwner ? (
          <AddPerson
            exclude={new Set([me, node.owner_id, ...direct.map((person) => person.user_id)])}
            busy={grant.isPending}
            roles={ROLE_CHOICES}
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
        )
      }
    />
  );
}
