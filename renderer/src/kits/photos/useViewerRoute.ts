import { useCallback, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A page's photo opened full screen at its own address (`<home>/<id><search>`), so Back closes
 * it as on a phone: opening pushes an entry marked `flag` (Back pops it), paging replaces it,
 * closing goes back when this page opened it and otherwise (an address opened directly)
 * replaces it with the page. `lastViewed` is the photo the grid scrolls to when it closes;
 * `viewing` the photo on screen and the one to show if it goes (the next, else the previous).
 */
export function useViewerRoute<T extends { id: string }>(home: string, search: string, flag: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const [lastViewed, setLastViewed] = useState<string | null>(null);
  const openedHere = (location.state as Record<string, unknown> | null)?.[flag] === true;

  const open = useCallback(
    (item: T) => {
      setLastViewed(item.id);
      navigate(`${home}/${item.id}${search}`, { state: { [flag]: true } });
    },
    [navigate, home, search, flag],
  );
  const show = useCallback(
    (item: T) => {
      setLastViewed(item.id);
      navigate(`${home}/${item.id}${search}`, { replace: true, state: location.state });
    },
    [navigate, location.state, home, search],
  );
  const close = useCallback(() => {
    if (openedHere) navigate(-1);
    else navigate(`${home}${search}`, { replace: true });
  }, [navigate, openedHere, home, search]);

  const viewing = useRef<{ item: T | null; next: T | null }>({ item: null, next: null });
  const remember = useCallback((item: T | null, next: T | null) => {
    viewing.current = { item, next };
  }, []);
  return { lastViewed, open, show, close, viewing, remember };
}
