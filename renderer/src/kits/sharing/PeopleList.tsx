import type { ReactNode } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { Avatar } from './AddPerson.tsx';

/** Someone given access: to a folder or file (a grant), or to an album (a member). */
export interface Person<R extends string> {
  user_id: string;
  name: string;
  role: R;
}

export interface PeopleListProps<R extends string> {
  /** The list's name for those who hear the screen ("People with access"). */
  label: string;
  /** The owner's row: the initial's name, and the words shown ("You", "Emma (you)"). */
  owner: { name: string; text: string };
  people: readonly Person<R>[];
  /** The signed-in account: its own row says "(you)". */
  me: string;
  /** The owner sees a choice of role and a remove button on each row; anyone else reads the role. */
  manage: boolean;
  /** What each role is called, in the order the choice offers them. */
  roleWords: Record<R, string>;
  roleBusy: boolean;
  onRole: (person: Person<R>, role: R) => void;
  removeLabel: (person: Person<R>) => string;
  removeBusy: boolean;
  onRemove: (person: Person<R>) => void;
  /** Further rows, after the people (those with access through a folder above). */
  more?: ReactNode;
  /** Under the list: loading, an error, that nobody else has it, in the caller's order. */
  notes: ReactNode;
  /** What the last change did, said in words (and to those who hear the screen). */
  said: string | null;
  failure: string | null;
  /** Adding someone (the owner), or who may change the list (anyone else). */
  footer: ReactNode;
}

/**
 * Who has something shared with them: its owner first, then the people given it, each with what
 * they may do. One list for a folder's or file's people (the share dialog) and an album's: the
 * owner changes what each may do and takes them out, anyone else reads it.
 */
export function PeopleList<R extends string>({
  label,
  owner,
  people,
  me,
  manage,
  roleWords,
  roleBusy,
  onRole,
  removeLabel,
  removeBusy,
  onRemove,
  more,
  notes,
  said,
  failure,
  footer,
}: PeopleListProps<R>) {
  const roles = Object.keys(roleWords) as R[];
  return (
    <div className="people-panel">
      <ul className="people-list" aria-label={label}>
        <li className="person">
          <Avatar name={owner.name} />
          <span className="person-name">{owner.text}</span>
          <span className="person-role">Owner</span>
        </li>
        {people.map((person) => (
          <li key={person.user_id} className="person">
            <Avatar name={person.name} />
            <span className="person-name">{person.user_id === me ? `${person.name} (you)` : person.name}</span>
            {manage ? (
              <>
                <select
                  className="person-role-select"
                  aria-label={`What ${person.name} can do`}
                  value={person.role}
                  disabled={roleBusy}
                  onChange={(event) => onRole(person, event.target.value as R)}
                >
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {roleWords[role]}
                    </option>
                  ))}
                </select>
                <IconButton icon="close" label={removeLabel(person)} disabled={removeBusy} onClick={() => onRemove(person)} />
              </>
            ) : (
              <span className="person-role">{roleWords[person.role]}</span>
            )}
          </li>
        ))}
        {more}
      </ul>
      {notes}
      <div role="status" className="link-status">
        {said}
      </div>
      {failure && <Notice tone="error">{failure}</Notice>}
      {footer}
    </div>
  );
}
