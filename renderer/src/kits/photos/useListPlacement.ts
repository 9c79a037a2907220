import { useLayoutEffect, useState, type RefObject } from 'react';

/** The list's content width, kept current as the window or the side bar changes. */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Where the list starts in the page: a window virtualizer's rows are placed from there. */
export function useOffsetTop(ref: RefObject<HTMLElement | null>, width: number): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const read = () => setTop(element.getBoundingClientRect().top + window.scrollY);
    // Read when the observer first reports (after the frame's layout, so reading costs nothing),
    // not now: now the page has just changed, and reading would lay it all out inside this task.
    // What sits above the list changes its height after the list is laid out (an empty page's
    // card leaving, the backup's status coming): the rows and the scrubber follow.
    const observer = new ResizeObserver(read);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref, width]);
  return top;
}
