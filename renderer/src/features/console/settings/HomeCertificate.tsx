import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Fingerprint } from '../../../ui/Fingerprint.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import { useHomeHttps, type HomeHttps } from './queries.ts';

/**
 * Hearth's certificate, on the card that sets phones up: the fingerprint a phone shows when it
 * installs it, to compare; and, when the certificate vouches for more than Hearth (an earlier
 * version made it) or misses a name phones now use, the way to make a new one, saying plainly
 * that each phone then sets Hearth up again.
 */
export function HomeCertificate({ fallbackAddress }: { fallbackAddress: string | null }) {
  const https = useHomeHttps();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const replace = useMutation({
    mutationFn: () => data(api.POST('/admin/https/authority')),
    onSuccess: (next) => {
      queryClient.setQueryData(consoleKeys.https, next);
      setConfirming(false);
    },
  });
  const authority = https.data?.authority;
  if (!authority) return null;
  const why = reasonToReplace(https.data!);
  return (
    <div className="home-certificate">
      <h3>Check the certificate on the phone</h3>
      <p className="muted">
        When a phone installs “{authority.name}”, it shows the certificate’s fingerprint (SHA-256). It should read exactly:
      </p>
      <p>
        <Fingerprint value={authority.fingerprint_sha256} label={`Fingerprint of ${authority.name}`} />
      </p>
      {replace.isSuccess && (
        <Notice>
          A new certificate is ready. On each phone that used Hearth as an app, open the page for phones again and install it.
          {fallbackAddress &&
            ` If a phone says the connection is not private, open ${new URL('app-setup', fallbackAddress)} on it instead.`}
        </Notice>
      )}
      {why && !replace.isSuccess && (
        <Notice>
          {why} A new certificate fixes this. Each phone that already uses Hearth as an app then sets it up again from the page for phones.
        </Notice>
      )}
      {why && !replace.isSuccess && <Button onClick={() => setConfirming(true)}>Make a new certificate</Button>}
      {replace.isError && <Notice tone="error">{replace.error.message}</Notice>}
      {confirming && (
        <ConfirmDialog
          title="Make a new certificate?"
          message={
            <p>
              Phones that already use Hearth as an app stop opening it privately until you set each one up again from the page for phones.
              Phones that use Hearth in the browser are not affected.
            </p>
          }
          confirm="Make a new certificate"
          busy={replace.isPending}
          onConfirm={() => replace.mutate()}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

/** Why the owner may want a new certificate, in a parent's words; null when all is well. */
function reasonToReplace(https: HomeHttps): string | null {
  const authority = https.authority!;
  if (!authority.limited) {
    return 'This certificate was made by an earlier version of Hearth: it can vouch for other devices at home too, such as the router or a printer, not only for this PC.';
  }
  if (https.uncovered.length > 0) {
    return `Phones that open Hearth at ${https.uncovered.join(', ')} get no private connection there: the certificate was made before this PC could be reached that way.`;
  }
  return null;
}
