import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { Button } from '../../../ui/Button.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { formatDate } from '../../../ui/format.ts';
import { consoleKeys } from '../keys.ts';
import { useInvites, type Invite } from './queries.ts';
import { roleName } from './roleName.ts';

function stateOf(invite: Invite, now: number): { words: string; live: boolean } {
  if (invite.max_uses !== null && invite.uses >= invite.max_uses) return { words: 'Used', live: false };
  if (invite.expires_at !== null && invite.expires_at <= now) return { words: 'Expired', live: false };
  return { words: invite.uses > 0 ? `Used ${invite.uses} times, still open` : 'Not used yet', live: true };
}

/** Invites made so far: who for, what they allow, until when, used or not; withdraw one that is still open. */
export function InviteList() {
  const queryClient = useQueryClient();
  const invites = useInvites();
  const withdraw = useMutation({
    mutationFn: (id: string) => data(api.DELETE('/admin/invites/{id}', { params: { path: { id } } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: consoleKeys.invites }),
  });
  if (invites.isPending) return <Spinner label="Loading invites" />;
  if (invites.isError) return <Notice tone="error">{invites.error.message}</Notice>;
  // "Now" is when the list was read: the render stays pure, and a refetch moves it on.
  const now = invites.dataUpdatedAt;
  const newestFirst = [...invites.data].sort((a, b) => b.created_at - a.created_at);
  if (newestFirst.length === 0) return <p className="muted empty">No invites yet. Make one to let someone create an account.</p>;
  return (
    <>
      {withdraw.isError && <Notice tone="error">{withdraw.error.message}</Notice>}
      <ul className="card invite-list" aria-label="Invites">
        {newestFirst.map((invite) => {
          const state = stateOf(invite, now);
          const who = invite.label ?? 'Invite without a name';
          return (
            <li key={invite.id} className="device-row">
              <div>
                <strong>{who}</strong>
                <span className={state.live ? 'tag' : 'tag tag-quiet'}>{state.words}</span>
                <div className="muted">
                  {roleName(invite.role)} · made {formatDate(invite.created_at)} ·{' '}
                  {invite.expires_at === null
                    ? 'no end date'
                    : `${invite.expires_at > now ? 'works until' : 'ended'} ${formatDate(invite.expires_at)}`}
                </div>
              </div>
              <Button
                onClick={() => withdraw.mutate(invite.id)}
                disabled={withdraw.isPending}
                aria-label={`Withdraw the invite for ${who}`}
              >
                {state.live ? 'Withdraw' : 'Remove'}
              </Button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
