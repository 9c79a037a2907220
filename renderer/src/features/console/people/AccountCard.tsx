import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { useSession } from '../../../api/useSession.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../../ui/Dialog.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { formatBytes } from '../../../ui/format.ts';
import { CopyField } from '../../../ui/CopyField.tsx';
import { consoleKeys } from '../keys.ts';
import { UsageBar } from '../UsageBar.tsx';
import { type AdminUser } from './queries.ts';
import { roleName } from './roleName.ts';
import './people.css';

const GB = 1024 ** 3;
type Open = null | 'quota' | 'reset' | 'disable' | 'role';
type Patch = { disabled?: boolean; quota_bytes?: number | null; role?: 'admin' | 'member' };

export function AccountCard({ user }: { user: AdminUser }) {
  const state = useSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Open>(null);
  const isMe = state.kind === 'signed-in' && state.user.id === user.id;
  // The account that set Hearth up stays an owner and switched on, and only it sets its password.
  const guarded = user.main_owner && !isMe;
  const name = user.display_name ?? user.username;
  const patch = useMutation({
    mutationFn: (body: Patch) => data(api.PATCH('/admin/users/{id}', { params: { path: { id: user.id } }, body })),
    onSuccess: () => setOpen(null),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.users }),
  });
  const titleId = `account-${user.id}`;
  return (
    <li className={`card console-card account${user.disabled ? ' is-off' : ''}`} aria-labelledby={titleId}>
      <div className="account-head">
        <h3 id={titleId}>{name}</h3>
        <span className="tag">{roleName(user.role)}</span>
        {user.disabled && <span className="tag tag-danger">Switched off</span>}
        {user.main_owner && <span className="tag">Main owner</span>}
        {isMe && <span className="tag">You</span>}
      </div>
      {user.display_name && <p className="muted">Signs in as {user.username}</p>}
      <UsageBar label={`Space used by ${name}`} used={user.quota.used} total={user.quota.limit} />
      <p className="usage-words">
        {user.quota.limit === null
          ? `${formatBytes(user.quota.used)} used · no limit`
          : `${formatBytes(user.quota.used)} of ${formatBytes(user.quota.limit)} used`}
      </p>
      {patch.isError && open === null && <Notice tone="error">{patch.error.message}</Notice>}
      <div className="row">
        <Button onClick={() => setOpen('quota')} aria-label={`Storage limit of ${name}`}>
          Storage limit
        </Button>
        {!guarded && (
          <Button onClick={() => setOpen('reset')} aria-label={`New password for ${name}`}>
            New password
          </Button>
        )}
        {!isMe && !guarded && (
          <Button
            onClick={() => setOpen('role')}
            aria-label={user.role === 'admin' ? `Make ${name} a family member` : `Make ${name} an owner`}
          >
            {user.role === 'admin' ? 'Make family member' : 'Make owner'}
          </Button>
        )}
        {!isMe &&
          !guarded &&
          (user.disabled ? (
            <Button onClick={() => patch.mutate({ disabled: false })} disabled={patch.isPending} aria-label={`Switch on ${name}`}>
              Switch on
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setOpen('disable')} aria-label={`Switch off ${name}`}>
              Switch off
            </Button>
          ))}
      </div>
      {open === 'disable' && (
        <ConfirmDialog
          title={`Switch off ${name}?`}
          message={
            <>
              <p>{name} is signed out on every device and cannot sign in. Their links stop working and what they shared is hidden.</p>
              <p>Nothing is deleted: switch the account on again and everything is back as it was.</p>
              {patch.isError && <Notice tone="error">{patch.error.message}</Notice>}
            </>
          }
          confirm="Switch off"
          danger
          busy={patch.isPending}
          onConfirm={() => patch.mutate({ disabled: true })}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'role' && (
        <ConfirmDialog
          title={user.role === 'admin' ? `Make ${name} a family member?` : `Make ${name} an owner?`}
          message={
            <>
              <p>
                {user.role === 'admin'
                  ? `${name} will keep their files but can no longer approve phones, invite people or manage drives.`
                  : `${name} will be able to approve phones, invite people, switch accounts off and erase drives.`}
              </p>
              {patch.isError && <Notice tone="error">{patch.error.message}</Notice>}
            </>
          }
          confirm={user.role === 'admin' ? 'Make family member' : 'Make owner'}
          busy={patch.isPending}
          onConfirm={() => patch.mutate({ role: user.role === 'admin' ? 'member' : 'admin' })}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'quota' && (
        <QuotaDialog
          name={name}
          limit={user.quota.limit}
          busy={patch.isPending}
          error={patch.isError ? patch.error.message : null}
          onSave={(quota) => patch.mutate({ quota_bytes: quota })}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'reset' && <ResetPasswordDialog user={user} name={name} onClose={() => setOpen(null)} />}
    </li>
  );
}

function QuotaDialog({
  name,
  limit,
  busy,
  error,
  onSave,
  onClose,
}: {
  name: string;
  limit: number | null;
  busy: boolean;
  error: string | null;
  onSave: (quota: number | null) => void;
  onClose: () => void;
}) {
  const sizeId = useId();
  const [unlimited, setUnlimited] = useState(limit === null);
  const [gigabytes, setGigabytes] = useState(limit === null ? '50' : String(Math.round((limit / GB) * 10) / 10));
  const amount = Number(gigabytes);
  const valid = unlimited || (Number.isFinite(amount) && amount > 0);
  return (
    <Dialog title={`Storage limit of ${name}`} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (valid) onSave(unlimited ? null : Math.round(amount * GB));
        }}
      >
        <label className="check">
          <input type="checkbox" checked={unlimited} onChange={(e) => setUnlimited(e.target.checked)} /> No limit
        </label>
        {!unlimited && (
          <div className="field">
            <label htmlFor={sizeId}>Limit in GB</label>
            <input
              id={sizeId}
              type="number"
              inputMode="decimal"
              min="0.1"
              step="0.1"
              value={gigabytes}
              onChange={(e) => setGigabytes(e.target.value)}
            />
            <span className="hint">
              Files, old versions and the trash all count. Nothing is deleted if they are over it; they just cannot add more.
            </span>
          </div>
        )}
        {error && <Notice tone="error">{error}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy || !valid}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The temporary password is shown once, here: the server keeps only its hash. */
function ResetPasswordDialog({ user, name, onClose }: { user: AdminUser; name: string; onClose: () => void }) {
  const reset = useMutation({
    mutationFn: () => data(api.POST('/admin/users/{id}/reset-password', { params: { path: { id: user.id } }, body: {} })),
  });
  return (
    <Dialog title={`New password for ${name}`} onClose={onClose}>
      {reset.data ? (
        <>
          <Notice>Give this temporary password to {name}. They choose their own the next time they sign in. It is shown only now.</Notice>
          <CopyField label="Temporary password" value={reset.data.temporary_password} big />
          <div className="dialog-actions">
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <>
          <div className="dialog-text">
            <p>
              Hearth makes a temporary password for {name}. They are signed out on every device, and choose a new password the next time
              they sign in.
            </p>
            <p className="muted">Their files stay as they are.</p>
          </div>
          {reset.isError && <Notice tone="error">{reset.error.message}</Notice>}
          <div className="dialog-actions">
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" onClick={() => reset.mutate()} disabled={reset.isPending}>
              {reset.isPending ? 'Making a password…' : 'Make a temporary password'}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}
