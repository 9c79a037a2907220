/** Hands a URL to the browser's own download (resumable, off this page), under the file's name. */
export function saveFrom(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}
