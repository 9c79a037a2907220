import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { saveFrom } from '../../../ui/saveFrom.ts';
import { consoleKeys } from '../keys.ts';
import { QrImage } from '../QrImage.tsx';

/**
 * The emergency kit: the backup key as a file to keep and as a page to print (its QR code holds
 * the key), with the plain warning that without it an encrypted backup cannot be restored.
 */
export function EmergencyKitDialog({ onClose, justEncrypted = false }: { onClose: () => void; justEncrypted?: boolean }) {
  const kit = useQuery({ queryKey: consoleKeys.backupKit, queryFn: () => data(api.GET('/admin/backup/kit')), staleTime: Infinity });
  const download = () => {
    if (!kit.data) return;
    const url = URL.createObjectURL(new Blob([kit.data.file_text], { type: 'text/plain' }));
    saveFrom(url, kit.data.file_name);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <Dialog title="Emergency kit" onClose={onClose} wide>
      {justEncrypted && <p>This backup is encrypted: nobody who finds the disk can read it. Keep its key safe now.</p>}
      {kit.isPending && <Spinner label="Loading the emergency kit" />}
      {kit.isError && <Notice tone="error">{kit.error.message}</Notice>}
      {kit.data && (
        <>
          <Notice tone="error">
            <strong>Keep this kit.</strong> {kit.data.warning}
          </Notice>
          <section className="kit-sheet" aria-label="Printable emergency kit">
            <h3>Hearth emergency kit</h3>
            <p className="muted">Backup key made on {new Date(kit.data.created_at).toLocaleDateString()}</p>
            <QrImage text={kit.data.key} label="QR code of the backup key" size={180} />
            <p className="mono kit-key">{kit.data.key}</p>
            <p>
              To restore: on a new Hearth, choose <strong>Restore from a backup</strong> on the first screen and give this key (the file, or
              the QR code scanned to text).
            </p>
          </section>
        </>
      )}
      <div className="dialog-actions">
        <Button variant="quiet" onClick={onClose}>
          Done
        </Button>
        <Button onClick={() => window.print()} disabled={!kit.data}>
          Print
        </Button>
        <Button variant="primary" onClick={download} disabled={!kit.data}>
          Download emergency kit
        </Button>
      </div>
    </Dialog>
  );
}
