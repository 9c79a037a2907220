import { capitalise, selectionWords } from '../../kits/photos/index.ts';

type Named = { mime_type: string | null; type?: string };

/**
 * What Private says after moving several out at once: how many, and where they went (one
 * folder by its name, else "the folders they came from"); what could not be moved is said apart.
 * `place` is the one folder's name, or null when they went to different places.
 */
export function movedOutWords(moved: readonly Named[], failed: readonly Named[], place: string | null): string {
  if (moved.length === 0) return `${capitalise(selectionWords(failed))} could not be moved out. Check your connection and try again.`;
  const where = place ? `back to ${place}` : `back to the folders ${moved.length === 1 ? 'it' : 'they'} came from`;
  const said = `${capitalise(selectionWords(moved))} moved out of Private, ${where}.`;
  if (failed.length === 0) return said;
  return `${said} ${capitalise(selectionWords(failed))} could not be moved. Check your connection and try again.`;
}

/** After Undo: they are in Private again (or some could not go back). */
export function backInWords(back: readonly Named[], failed: readonly Named[]): string {
  const said = back.length > 0 ? `${capitalise(selectionWords(back))} ${back.length === 1 ? 'is' : 'are'} back in Private.` : '';
  if (failed.length === 0) return said;
  return `${said} ${capitalise(selectionWords(failed))} could not be put back. Check your connection and try again.`.trim();
}
