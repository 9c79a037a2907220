import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { FaceCrop } from '../../kits/photos/index.ts';
import { useMergePeople } from './person-queries.ts';
import { usePeople, type Person } from './queries.ts';
import { personChoice, personName, personNameInside, photoCount } from './words.ts';

/**
 * "This is the same person as…": the family picks who, reads what will happen, and confirms.
 * The server cannot take a merge apart again, so it asks first; a wrong face can still be
 * moved out afterwards.
 */
export function MergeDialog({ person, onClose, onMerged }: { person: Person; onClose: () => void; onMerged: (photos: number) => void }) {
  const people = usePeople();
  const merge = useMergePeople();
  const [other, setOther] = useState<Person | null>(null);
  const choices = people.data?.items.filter((p) => p.id !== person.id && !p.hidden) ?? [];
  const name = personName(person);

  if (other) {
    const kept = person.name ?? other.name;
    return (
      <Dialog title={`Put ${personNameInside(other)} together with ${personNameInside(person)}?`} onClose={onClose}>
        <div className="merge-pair" aria-hidden="true">
          <FaceCrop nodeId={person.cover.node_id} version={person.cover.version} rotation={person.cover.rotation} box={person.cover.box} />
          <span className="merge-plus">+</span>
          <FaceCrop nodeId={other.cover.node_id} version={other.cover.version} rotation={other.cover.rotation} box={other.cover.box} />
        </div>
        <div className="dialog-text">
          <p>
            Their {photoCount(other.photo_count)} join {name}’s {photoCount(person.photo_count)}: one person from now on
            {kept ? `, called ${kept}` : ''}.
          </p>
          <p className="muted">
            This cannot be undone in one step. If a face turns out not to be theirs, you can still move it out with Fix wrong faces.
          </p>
        </div>
        {merge.error && <Notice tone="error">{merge.error.message}</Notice>}
        <div className="dialog-actions">
          <Button onClick={() => setOther(null)} disabled={merge.isPending}>
            Back
          </Button>
          <Button
            variant="primary"
            disabled={merge.isPending}
            onClick={() => merge.mutate({ into: person.id, from: [other.id] }, { onSuccess: (now) => onMerged(now.photo_count) })}
          >
            Put together
          </Button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title={`Who else is ${personNameInside(person)}?`} onClose={onClose}>
      <p className="dialog-text">Choose the person who is really {personNameInside(person)} too. Their photos will show as one person.</p>
      {people.isPending && <Spinner label="Loading people" />}
      {people.isError && <Notice tone="error">{people.error.message}</Notice>}
      {people.isSuccess && choices.length === 0 && <p className="muted">There is nobody else on People yet.</p>}
      {choices.length > 0 && (
        <ul className="merge-choices" aria-label="People">
          {choices.map((choice) => (
            <li key={choice.id}>
              <button type="button" className="merge-choice" aria-label={personChoice(choice)} onClick={() => setOther(choice)}>
                <FaceCrop
                  nodeId={choice.cover.node_id}
                  version={choice.cover.version}
                  rotation={choice.cover.rotation}
                  box={choice.cover.box}
                />
                <span className={choice.name ? 'person-name' : 'person-name muted'}>{choice.name ?? 'Not named yet'}</span>
                <span className="person-meta">{photoCount(choice.photo_count)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Dialog>
  );
}
