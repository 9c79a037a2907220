import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, data, isApiError } from '../../api/client.ts';
import { nodePathQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { FolderPicker } from '../folders/index.ts';
import { thisDeviceName } from './device-name.ts';
import { NameThisDevice } from './NameThisDevice.tsx';
import { rememberFolder, useChosenFolderId } from './folder-choice.ts';
import { BACKUP_FOLDER, inTrash, pathWords } from './folder.ts';
import './phone-backup.css';

/**
 * This device's backup folder name ("Mum’s phone"), under the sessions' key; until the first
 * backup, the folder it names is where photos go.
 */
const deviceNameQuery = { queryKey: ['sessions', 'this-device-name'] as const, queryFn: thisDeviceName };

/**
 * The account page's "Back up this phone" ("Back up photos from this computer" on a computer):
 * where this device's photos go, and the deleted photos a backup skips.
 */
export function PhoneBackupSection({ userId }: { userId: string }) {
  const titleId = useId();
  const phone = useIsPhone();
  const chosenId = useChosenFolderId(userId);
  const device = useQuery(deviceNameQuery);
  const chosen = useQuery({
    ...nodePathQuery(chosenId ?? ''),
    enabled: chosenId !== null,
    // A folder deleted for good stays deleted: asking again only delays the answer.
    retry: (count, error) => !isApiError(error, 'not_found') && count < 2,
  });
  const [picking, setPicking] = useState(false);
  const forget = useMutation({ mutationFn: () => data(api.DELETE('/me/remembered-deletes')) });

  const gone = chosenId !== null && (isApiError(chosen.error, 'not_found') || (chosen.data !== undefined && inTrash(chosen.data)));
  const live = chosenId !== null && chosen.data && !gone ? chosen.data : null;
  const where = live ? pathWords(live) : device.data ? `${BACKUP_FOLDER}/${device.data}` : null;
  const loading = (chosenId !== null && chosen.isPending) || (!live && device.isPending);

  return (
    <section className="card section backup-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>{phone ? 'Back up this phone' : 'Back up photos from this computer'}</h2>
      {loading ? (
        <Spinner label="Finding the folder" />
      ) : (
        <p>
          Photos backed up from this device go into{' '}
          <span className="backup-folder-path">
            <Icon name="folder" />
            <strong>{where ?? BACKUP_FOLDER}</strong>
          </span>
        </p>
      )}
      {gone && <p className="muted">The folder chosen before was deleted: the next backup makes this one.</p>}
      {chosen.isError && !gone && <Notice tone="error">{chosen.error.message}</Notice>}
      <div className="row">
        {/* Until a folder is chosen or made, the one this device's photos will go into can be named. */}
        {!live && device.data && <NameThisDevice userId={userId} current={device.data} queryKey={deviceNameQuery.queryKey} />}
        <Button icon="folder" onClick={() => setPicking(true)}>
          Choose another folder
        </Button>
      </div>

      <h3 className="backup-settings-subtitle">Photos you deleted</h3>
      <p className="muted">Photos you deleted in Hearth are not sent again when any of your devices backs up.</p>
      {forget.isError && <Notice tone="error">{forget.error.message}</Notice>}
      {forget.isSuccess ? (
        <Notice>The next backup sends them again.</Notice>
      ) : (
        <div className="row">
          <Button disabled={forget.isPending} onClick={() => forget.mutate()}>
            Send them again next time
          </Button>
        </div>
      )}

      {picking && (
        <FolderPicker
          title="Where this device’s photos go"
          intro={<p className="muted">Open the folder they should go into, then choose it below.</p>}
          // Only the account's own folders: a backup is charged to, and kept for, its own account.
          offered={(folder: Node) => !folder.shared}
          choice={(here) =>
            here === null
              ? { label: 'Open a folder to choose it', disabled: true }
              : here.id === live?.at(-1)?.id
                ? { label: 'Photos already go here', disabled: true }
                : { label: `Back up into ${here.name}`, disabled: false }
          }
          busy={false}
          error={null}
          onPick={(folder) => {
            if (folder) rememberFolder(userId, folder.id);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </section>
  );
}
