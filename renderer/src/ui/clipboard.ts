import { desktopBridge } from '../api/desktop.ts';

/**
 * Copies text. The async clipboard exists only in secure contexts; a phone on plain HTTP gets
 * the old way: select a field's text and ask the browser to copy it.
 */
export async function copyText(text: string, field?: HTMLTextAreaElement | HTMLInputElement | null): Promise<boolean> {
  // The desktop window refuses the page every permission, the clipboard's too: its app copies.
  const desktop = desktopBridge();
  if (desktop) {
    try {
      await desktop.copyText(text);
      return true;
    } catch {
      // fall through to the browser's ways
    }
  }
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission): fall through to the selection.
    }
  }
  const target = field ?? document.createElement('textarea');
  if (!field) {
    target.value = text;
    target.setAttribute('readonly', '');
    target.className = 'visually-hidden';
    document.body.append(target);
  }
  target.select();
  target.setSelectionRange(0, text.length);
  let copied: boolean;
  try {
    // Deprecated, yet the only copy a non-secure page has.
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  if (!field) target.remove();
  return copied;
}
