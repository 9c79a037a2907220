import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { InlineRename } from '../../ui/InlineRename.tsx';
import { FaceCrop } from '../../kits/photos/index.ts';
import type { Person } from './queries.ts';
import { useUpdatePerson } from './person-queries.ts';
import type { Said } from './PersonToast.tsx';
import { personName, photoCount } from './words.ts';

const MAX_NAME = 100;

/**
 * The top of a person's page: their face, their name (renamed where it stands) and how many
 * photos, and what the family can do about them: say they are someone else too, fix wrong
 * faces, hide them.
 */
export function PersonHeader({
  person,
  checking,
  onCheck,
  onMerge,
  onSelect,
  onSaid,
}: {
  person: Person;
  checking: boolean;
  onCheck: () => void;
  onMerge: () => void;
  /** Choose photos (to download, share or trash them, or to say they are not in them). */
  onSelect: () => void;
  onSaid: (said: Said | null) => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const update = useUpdatePerson();
  const name = personName(person);
  const hide = (hidden: boolean) =>
    update.mutate(
      { id: person.id, hidden },
      {
        onSuccess: () =>
          onSaid(
            hidden
              ? {
                  text: `${name} is hidden: no longer on People or found by search. Their photos stay where they are.`,
                  undo: () => update.mutate({ id: person.id, hidden: false }),
                }
              : { text: `${name} is back on People.` },
          ),
      },
    );

  return (
    <header className="person-head">
      <Link className="btn btn-quiet btn-icon person-back" to="/people" aria-label="Back to People" title="Back to People">
        <Icon name="back" />
      </Link>
      <FaceCrop
        nodeId={person.cover.node_id}
        version={person.cover.version}
        rotation={person.cover.rotation}
        box={person.cover.box}
        className="person-head-face"
      />
      <div className="person-head-text">
        {renaming ? (
          <InlineRename
            label={person.name ? `New name for ${person.name}` : 'Their name'}
            initial={person.name ?? ''}
            maxLength={MAX_NAME}
            busy={update.isPending}
            error={update.error?.message ?? null}
            onCancel={() => setRenaming(false)}
            onSave={(next) => update.mutate({ id: person.id, name: next }, { onSuccess: () => setRenaming(false) })}
          />
        ) : (
          <h1 className={person.name ? undefined : 'muted'}>{person.name ?? 'Not named yet'}</h1>
        )}
        <p className="person-meta">{photoCount(person.photo_count)}</p>
      </div>
      <div className="person-actions">
        <Button icon="check" onClick={onSelect} disabled={checking}>
          Select
        </Button>
        {!renaming && (
          <Button icon="edit" onClick={() => setRenaming(true)}>
            {person.name ? 'Rename' : 'Add a name'}
          </Button>
        )}
        <Button icon="people" onClick={onMerge}>
          Same person as…
        </Button>
        <Button icon="remove" aria-pressed={checking} onClick={onCheck}>
          Fix wrong faces
        </Button>
        {person.hidden ? (
          <Button onClick={() => hide(false)} disabled={update.isPending}>
            Show again
          </Button>
        ) : (
          <Button onClick={() => hide(true)} disabled={update.isPending}>
            Hide this person
          </Button>
        )}
      </div>
    </header>
  );
}
