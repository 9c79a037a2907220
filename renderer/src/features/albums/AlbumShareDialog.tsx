import { Suspense, useState, type ReactNode } from 'react';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AddPerson, LinksPanel, PeopleList, ShareTabs, type ShareTab } from '../../kits/sharing/index.ts';
import { useAlbumMembers, useAlbumMutations, type Album, type AlbumMember, type MemberRole } from './queries.ts';
import { UNDO_MINUTES } from './useMemberUndo.tsx';
import { removalQuestion } from './words.ts';

const ROLE_WORDS: Record<MemberRole, string> = { contributor: 'Can add photos', viewer: 'Can look' };
const ROLE_CHOICES = [
  { value: 'contributor', label: 'Look and add their photos' },
  { value: 'viewer', label: 'Look only' },
] as const;

type Tab = 'people' | 'link';

const TABS: ShareTab<Tab>[] = [
  { id: 'people', label: 'Family', icon: 'people' },
  { id: 'link', label: 'Link', icon: 'link' },
];

/** What the album's page does once someone is taken out: it offers Undo (drawn here while this is open). */
export interface RemovalUndo {
  offer: (person: AlbumMember) => void;
  view: ReactNode;
}

/**
 * Sharing an album. Its owner shares it with family members (Family) or makes a link for anyone
 * (Link: expiry, password, downloads, as for a folder); anyone else sees who is in it and may leave.
 */
export function AlbumShareDialog({
  album,
  initialTab = 'people',
  onLeave,
  onClose,
  undo,
}: {
  album: Album;
  /** Link: a selection shared as a new album opens where its link is made. */
  initialTab?: Tab;
  onLeave: () => void;
  onClose: () => void;
  undo?: RemovalUndo | undefined;
}) {
  const isOwner = album.role === 'owner';
  const [tab, setTab] = useState<Tab>(initialTab);
  if (!isOwner) {
    return (
      <Dialog title={`People in “${album.name}”`} onClose={onClose} wide>
        <PeoplePanel album={album} onLeave={onLeave} undo={undo} />
      </Dialog>
    );
  }
  return (
    <Dialog title={`Share “${album.name}”`} onClose={onClose} wide>
      <ShareTabs tabs={TABS} tab={tab} onTab={setTab} idPrefix="album">
        {tab === 'people' ? (
          <PeoplePanel album={album} onLeave={onLeave} undo={undo} />
        ) : (
          <Suspense fallback={<Spinner label="Loading links" />}>
            <LinksPanel target={{ kind: 'album', id: album.id }} what="this album's photos and videos" />
            {album.members > 0 && (
              <p className="muted album-link-consent">
                A link shows your own photos and videos. What others add shows on it only when they said it may.
              </p>
            )}
          </Suspense>
        )}
      </ShareTabs>
    </Dialog>
  );
}

/**
 * Who is in an album. Its owner adds family members (to look, or to look and add their own
 * photos), changes that, and takes people out (after saying what leaves with them, and with Undo
 * for a while); anyone else sees who is in it and may leave.
 */
function PeoplePanel({ album, onLeave, undo }: { album: Album; onLeave: () => void; undo?: RemovalUndo | undefined }) {
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const isOwner = album.role === 'owner';
  const members = useAlbumMembers(album.id);
  const { invite, removeMember } = useAlbumMutations(album.id);
  const [said, setSaid] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<AlbumMember | null>(null);
  const people = members.data ?? [];
  const failure = invite.error?.message ?? removeMember.error?.message ?? null;

  return (
    <PeopleList
      label="People in this album"
      owner={{ name: album.owner_name, text: isOwner ? `${album.owner_name} (you)` : album.owner_name }}
      people={people}
      me={me}
      manage={isOwner}
      roleWords={ROLE_WORDS}
      roleBusy={invite.isPending}
      onRole={(person, role) =>
        invite.mutate(
          { userId: person.user_id, role },
          {
            onSuccess: () =>
              setSaid(role === 'contributor' ? `${person.name} can now add their photos.` : `${person.name} can now only look.`),
          },
        )
      }
      removeLabel={(person) => `Take ${person.name} out of the album`}
      removeBusy={removeMember.isPending}
      onRemove={(person) => {
        removeMember.reset();
        setLeaving(people.find((member) => member.user_id === person.user_id) ?? null);
      }}
      notes={
        <>
          {leaving && (
            <ConfirmDialog
              title={`Take ${leaving.name} out of “${album.name}”?`}
              message={removalQuestion(leaving, UNDO_MINUTES)}
              confirm="Take out"
              danger
              busy={removeMember.isPending}
              onConfirm={() =>
                removeMember.mutate(leaving.user_id, {
                  onSuccess: () => {
                    setSaid(null);
                    undo?.offer(leaving);
                    setLeaving(null);
                  },
                })
              }
              onClose={() => setLeaving(null)}
            />
          )}
          {undo?.view}
          {members.isPending && <Spinner label="Loading who is in the album" />}
          {members.isError && <Notice tone="error">{members.error.message}</Notice>}
          {isOwner && members.isSuccess && people.length === 0 && <p className="muted">Only you can see “{album.name}”.</p>}
        </>
      }
      said={said}
      failure={failure}
      footer={
        isOwner ? (
          <AddPerson
            exclude={new Set([me, album.owner_id, ...people.map((person) => person.user_id)])}
            busy={invite.isPending}
            roles={ROLE_CHOICES}
            onAdd={(person, role) =>
              invite.mutate(
                { userId: person.id, role },
                {
                  onSuccess: () =>
                    setSaid(
                      `${person.name} can now see “${album.name}”${role === 'contributor' ? ' and add their photos to it' : ''}. It shows under Albums for them.`,
                    ),
                },
              )
            }
          />
        ) : (
          <div className="album-leave">
            <p className="muted">Only {album.owner_name} can change who is in this album.</p>
            <Button variant="danger" icon="logout" onClick={onLeave}>
              Leave this album
            </Button>
          </div>
        )
      }
    />
  );
}
