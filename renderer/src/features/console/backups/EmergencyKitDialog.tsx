import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { saveFrom } from '../../../api/saveFrom.ts';
import { consoleKeys } from '../keys.ts';
import { QrImage } from '../QrImage.tsx';
import { useBackups } from './queries.ts';

/**
 * The emergency kit: the backup key as a file to keep and as a page to print (its QR code holds
 * the key), with the plain warning that without it an encrypted backup cannot be restored.
 *
 * A browser cannot tell whether a download was kept or a page printed, so once the owner has
 * done either, they say so ("I have saved the kit"): that ends the Backups page's reminder.
 */
export function EmergencyKitDialog({ onClose, justEncrypted = false }: { onClose: () => void; justEncrypted?: boolean }) {
  const queryClient = useQueryClient();
  const kit = useQuery({ queryKey: consoleKeys.backupKit, queryFn: () => data(api.GET('/admin/backup/kit')), staleTime: Infinity });
  const savedAt = useBackups().data?.kit.saved_at ?? null;
  const [handedOver, setHandedOver] = useState(false);
  const confirm = useMutation({
    mutationFn: () => data(api.POST('/admin/backup/kit/saved')),
    onSuccess: () => onClose(),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.backups }),
  });
  const download = () => {
    if (!kit.data) return;
    const url = URL.createObjectURL(new Blob([kit.data.file_text], { type: 'text/plain' }));
    saveFrom(url, kit.data.file_name);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    setHandedOver(true);
  };
  const print = () => {
    window.print();
    setHandedOver(true);
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
      {savedAt !== null && !handedOver && <p className="muted">You said you saved this kit on {new Date(savedAt).toLocaleDateString()}.</p>}
      {handedOver && (
        <div className="kit-confirm" role="group" aria-label="Saved the kit?">
          <p>
            Is the kit somewhere safe now, away from this PC (a printed page in a drawer, the file on another device)? Then Hearth stops
            reminding you.
          </p>
          {confirm.isError && <Notice tone="error">{confirm.error.message}</Notice>}
          <Button variant="primary" onClick={() => confirm.mutate()} disabled={confirm.isPending}>
            I have saved the kit
          </Button>
        </div>
      )}
      <div className="dialog-actions">
        <Button variant="quiet" onClick={onClose}>
          Done
        </Button>
        <Button onClick={print} disabled={!kit.data}>
          Print
        </Button>
        <Button variant={handedOver ? 'default' : 'primary'} onClick={download} disabled={!kit.data}>
          Download emergency kit
        </Button>
      </div>
    </Dialog>
  );
}
