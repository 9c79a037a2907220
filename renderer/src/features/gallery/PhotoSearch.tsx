import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';

/** A pause in typing this long asks the server: one request per pause, not per key. */
const SETTLE_MS = 300;

/**
 * Photos' search box: it searches as the family types (after a short pause, with no Enter
 * needed), by date, place, camera or name. `value` is the search in force (in the address, so
 * Back and a reload keep it); the box's own text runs ahead of it while typing.
 */
export function PhotoSearch({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const typed = useRef(value);
  // A search changed from outside (Back, a link): the box follows.
  useEffect(() => {
    if (value !== typed.current.trim()) setText((typed.current = value));
  }, [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <form
      role="search"
      className="photo-search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <Icon name="search" />
      <label htmlFor="photo-search-input" className="visually-hidden">
        Search photos
      </label>
      <input
        id="photo-search-input"
        type="search"
        placeholder="Search: 2019, July 2021, Lisbon, dog…"
        autoComplete="off"
        enterKeyHint="search"
        value={text}
        onChange={(event) => setText((typed.current = event.target.value))}
      />
    </form>
  );
}
