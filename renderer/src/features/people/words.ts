/** "1 photo", "3 photos". */
export function photoCount(n: number): string {
  return n === 1 ? '1 photo' : `${n} photos`;
}

/** "1 face", "3 faces". */
export function faceCount(n: number): string {
  return n === 1 ? '1 face' : `${n} faces`;
}

/** Their name, or "This person" until they have one (for a sentence's start or a title). */
export function personName(person: { name: string | null }): string {
  return person.name ?? 'This person';
}

/** Their name, or "this person", in the middle of a sentence. */
export function personNameInside(person: { name: string | null }): string {
  return person.name ?? 'this person';
}

/** How a person is told apart in a list of choices: their name (or that they have none) and how many photos. */
export function personChoice(person: { name: string | null; photo_count: number }): string {
  return `${person.name ?? 'Not named yet'} (${photoCount(person.photo_count)})`;
}
