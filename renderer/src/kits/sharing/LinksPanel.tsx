import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { LinkCard } from './LinkCard.tsx';
import { LinkForm } from './LinkForm.tsx';
import { LinkReachNote } from './LinkReach.tsx';
import { useLinkMutations, useTargetLinks, type LinkTarget } from './queries.ts';
import './share.css';

/** The links of one file, folder or album, and a new one; `what` says what they open ("this folder and everything in it"). */
export function LinksPanel({ target, what }: { target: LinkTarget; what: string }) {
  const links = useTargetLinks(target);
  const { create, update, revoke } = useLinkMutations(target);
  const [creating, setCreating] = useState(false);
  const items = links.data ?? [];

  return (
    <div className="links-panel">
      <LinkReachNote what={what} />
      {links.isPending && <Spinner label="Loading links" />}
      {links.isError && <Notice tone="error">{links.error.message}</Notice>}
      {items.length > 0 && (
        <ul className="link-list" aria-label="Links">
          {items.map((link) => (
            <LinkCard
              key={link.id}
              link={link}
              updating={update.isPending && update.variables?.id === link.id}
              revoking={revoke.isPending && revoke.variables === link.id}
              updateError={update.isError && update.variables?.id === link.id ? update.error.message : null}
              revokeError={revoke.isError && revoke.variables === link.id ? revoke.error.message : null}
              onUpdate={(settings, done) => update.mutate({ id: link.id, settings }, { onSuccess: done })}
              onRevoke={(done) => revoke.mutate(link.id, { onSuccess: done })}
            />
          ))}
        </ul>
      )}
      {creating ? (
        <LinkForm
          link={null}
          busy={create.isPending}
          error={create.isError ? create.error.message : null}
          onSubmit={(settings) =>
            create.mutate(settings, {
              onSuccess: () => {
                setCreating(false);
                create.reset();
              },
            })
          }
          onCancel={() => {
            setCreating(false);
            create.reset();
          }}
        />
      ) : (
        links.isSuccess && (
          <Button icon="link" variant={items.length ? 'default' : 'primary'} onClick={() => setCreating(true)}>
            {items.length ? 'Make another link' : 'Make a link'}
          </Button>
        )
      )}
    </div>
  );
}
