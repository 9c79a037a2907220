import { useState } from 'react';
import type { Node } from '../../../api/types.ts';
import { formatBytes } from '../../../ui/format.ts';
import { selectionWords } from '../words.ts';
import { downloadSelection } from './download.ts';
import type { useActionMessages } from './messages.tsx';

/** Download: one file as it is, several as one zip named `name`; the browser shows how far it is. */
export function useDownloadAction(nodes: Node[], name: string, messages: ReturnType<typeof useActionMessages>, close: () => void) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    close();
    messages.setFailure(null);
    setDownloading(true);
    try {
      const got = await downloadSelection(nodes, name);
      messages.tell(
        got.kind === 'file'
          ? `Downloading “${got.name}”.`
          : `Downloading “${got.name}”: ${selectionWords(nodes)}, ${formatBytes(got.bytes)}. Your browser shows how far it is.`,
      );
    } catch (error) {
      messages.setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setDownloading(false);
    }
  };
  return { download, downloading };
}
