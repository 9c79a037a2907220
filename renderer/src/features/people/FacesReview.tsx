import { useMemo, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { FaceCrop } from '../../kits/photos/index.ts';
import type { Person } from './queries.ts';
import { useMergePeople, useMoveFacesOut, usePersonFaces } from './person-queries.ts';
import type { Said } from './PersonToast.tsx';
import { faceCount, personNameInside } from './words.ts';

/**
 * Wrong faces: every face put with this person, big enough to tell apart; the family taps the
 * ones that are not them and chooses "Not <name>". Each leaves them and becomes someone of its
 * own on People (never put back with them by itself); Undo puts them back.
 */
export function FacesReview({ person, onSaid, onDone }: { person: Person; onSaid: (said: Said | null) => void; onDone: () => void }) {
  const faces = usePersonFaces(person.id, true);
  const move = useMoveFacesOut();
  const merge = useMergePeople();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const list = useMemo(() => faces.data?.pages.flatMap((page) => page.items) ?? [], [faces.data]);
  const inside = personNameInside(person);
  // Someone with no face left is no one: one face at least stays (hiding them is the way to put them away).
  const all = !faces.hasNextPage && list.length > 0 && list.every((face) => chosen.has(face.id));
  const toggle = (id: string) =>
    setChosen((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const moveOut = () =>
    move.mutate(
      { person: person.id, faces: [...chosen] },
      {
        onSuccess: (moved) => {
          setChosen(new Set());
          onSaid({
            text: `${faceCount(moved.length)} moved out of ${inside}. ${moved.length === 1 ? 'It is' : 'Each is'} now someone of its own on People.`,
            undo: () => merge.mutate({ into: person.id, from: moved.map((p) => p.id) }),
          });
        },
      },
    );

  return (
    <section className="faces-review" aria-label={`Faces put with ${inside}`}>
      <p className="faces-review-hint">
        Tap the faces that are not {inside}, then choose <strong>Not {inside}</strong>.
      </p>
      {faces.isPending && <Spinner label="Loading their faces" />}
      {faces.isError && <Notice tone="error">{faces.error.message}</Notice>}
      <ul className="faces-review-grid" aria-label="Faces">
        {list.map((face) => (
          <li key={face.id}>
            <button
              type="button"
              className="face-pick"
              aria-pressed={chosen.has(face.id)}
              aria-label={`Face in ${face.name}`}
              onClick={() => toggle(face.id)}
            >
              <FaceCrop nodeId={face.node_id} version={face.version} rotation={face.rotation} box={face.box} />
            </button>
          </li>
        ))}
      </ul>
      {faces.hasNextPage && (
        <Button onClick={() => void faces.fetchNextPage()} disabled={faces.isFetchingNextPage}>
          Show more faces
        </Button>
      )}
      {all && (
        <Notice>
          At least one face has to stay with {inside}. To put {inside} away, choose Hide this person.
        </Notice>
      )}
      {move.error && <Notice tone="error">{move.error.message}</Notice>}
      <div className="faces-review-bar">
        <span className="faces-review-count">{chosen.size === 0 ? 'No faces chosen' : `${faceCount(chosen.size)} chosen`}</span>
        <Button onClick={onDone}>Done</Button>
        <Button variant="primary" disabled={chosen.size === 0 || all || move.isPending} onClick={moveOut}>
          Not {inside}
        </Button>
      </div>
    </section>
  );
}
