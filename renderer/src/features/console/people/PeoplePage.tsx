import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { AccountCard } from './AccountCard.tsx';
import { InviteForm } from './InviteForm.tsx';
import { InviteList } from './InviteList.tsx';
import { useAdminUsers } from './queries.ts';

/** Every account (role, space, switch off, new password) and the invites that let new people in. */
export function PeoplePage() {
  const users = useAdminUsers();
  const [inviting, setInviting] = useState(false);
  return (
    <ConsoleLayout
      title="People"
      actions={
        <Button variant="primary" icon="add" onClick={() => setInviting(true)}>
          Invite someone
        </Button>
      }
    >
      <section className="console-section" aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        {users.isPending && <Spinner label="Loading accounts" />}
        {users.isError && <Notice tone="error">{users.error.message}</Notice>}
        <ul className="card-list" aria-label="Accounts">
          {users.data?.map((user) => (
            <AccountCard key={user.id} user={user} />
          ))}
        </ul>
      </section>
      {/* Below the accounts only once they are there: a list growing above it would push it down as it reads. */}
      {!users.isPending && (
        <section className="console-section" aria-labelledby="invites-title">
          <h2 id="invites-title">Invites</h2>
          <InviteList />
        </section>
      )}
      {inviting && (
        <Dialog title="Invite someone" onClose={() => setInviting(false)} wide>
          <InviteForm onDone={() => setInviting(false)} />
        </Dialog>
      )}
    </ConsoleLayout>
  );
}
