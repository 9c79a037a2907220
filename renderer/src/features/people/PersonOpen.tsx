import { Link } from 'react-router';
import { FaceCrop } from '../../kits/photos/index.ts';
import type { Person } from './queries.ts';
import { personChoice, photoCount } from './words.ts';

/** A person's card face on People and Hidden people: the cover face, the name and how many photos, opening their page. */
export function PersonOpen({ person }: { person: Person }) {
  return (
    <Link className="person-open" to={`/people/${person.id}`} aria-label={`Open ${personChoice(person)}`}>
      <FaceCrop nodeId={person.cover.node_id} version={person.cover.version} rotation={person.cover.rotation} box={person.cover.box} />
      <span className={person.name ? 'person-name' : 'person-name muted'}>{person.name ?? 'Not named yet'}</span>
      <span className="person-meta">{photoCount(person.photo_count)}</span>
    </Link>
  );
}
