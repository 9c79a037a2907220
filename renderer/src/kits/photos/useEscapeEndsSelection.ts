import { useEffect } from 'react';

/** Escape leaves selection mode, unless something else answers it (`paused`: the viewer, the trash question). */
export function useEscapeEndsSelection(selection: { active: boolean; clear(): void }, paused: boolean): void {
  useEffect(() => {
    if (!selection.active || paused) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && selection.clear();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selection, paused]);
}
