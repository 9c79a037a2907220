/**
 * The window's scroll position as its scroll events last told it. Reading `window.scrollY`
 * while the page's layout is out of date makes the browser lay the whole page out there and
 * then: inside a list's first render that was the longest part of a phone's busiest task.
 */
let known = 0;

/** Follows the window's scrolling from the app's start (a passive listener: scrolling never waits for it). */
export function followScrolling(): void {
  known = window.scrollY;
  window.addEventListener(
    'scroll',
    () => {
      known = window.scrollY;
    },
    { passive: true },
  );
}

export function lastScrollY(): number {
  return known;
}
