/**
 * What React does for `autoFocus` and Preact leaves to the browser, which honours the attribute
 * only as a page loads or a dialog opens: a field that appears later (the code step of sign-in,
 * an inline rename) takes the focus as it appears. Used as a ref beside `autoFocus`, which a
 * dialog's opening still reads.
 */
export function focusWhenShown(element: HTMLElement | null): void {
  element?.focus();
}
