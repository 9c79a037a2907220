import { useQuery } from '@tanstack/react-query';
import { Suspense, useState, type FormEvent } from 'react';
import type { Node, NodeColor } from '../../api/types.ts';
import { startDownload } from '../../api/downloads.ts';
import { personNamesQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatBytes, formatDate, plural } from '../../ui/format.ts';
import { idempotencyKey } from '../../api/ids.ts';
import { KeptNotice, ShareDialog, useKeepCopy } from '../../kits/sharing/index.ts';
import { formatTakenFull } from '../../kits/viewer/index.ts';
import { FolderPicker, useNodeAction, type Action } from '../../kits/folders/index.ts';
import { useCreateFolder, useMoveToPrivate, useRestoreVersion } from './mutations.ts';
import { useNodeGrants, useVersions } from './queries.ts';

export type Open =
  | { kind: 'actions'; node: Node }
  | { kind: 'new-folder' }
  | { kind: 'rename'; node: Node }
  | { kind: 'move'; nodes: Node[] }
  | { kind: 'color'; node: Node }
  | { kind: 'versions'; node: Node }
  | { kind: 'details'; node: Node }
  | { kind: 'share'; node: Node }
  | { kind: 'trash'; nodes: Node[] }
  | { kind: 'purge'; nodes: Node[] };

const label = (nodes: Node[]) => (nodes.length === 1 ? `“${nodes[0]!.name}”` : plural(nodes.length, 'item'));

/** The dialog the page has open, if any. */
export function FileDialogs({
  open,
  setOpen,
  parentId,
  inTrash,
  onDone,
}: {
  open: Open | null;
  setOpen: (open: Open | null) => void;
  parentId: string | null;
  inTrash: boolean;
  onDone: () => void;
}) {
  const action = useNodeAction();
  const close = () => {
    action.reset();
    setOpen(null);
  };
  const apply = (nodes: Node[], act: Action) =>
    action.mutate(
      { nodes, action: act },
      {
        onSuccess: (result) => {
          if (result.failed.length === 0) {
            setOpen(null);
            onDone();
          }
        },
      },
    );
  const failure = action.isError
    ? action.error.message
    : action.data?.failed.length
      ? `${plural(action.data.failed.length, 'item')} could not be changed: ${action.data.failed[0]!.message}`
      : null;
  if (!open) return null;
  switch (open.kind) {
    case 'actions':
      return (
        <ActionSheet
          node={open.node}
          inTrash={inTrash}
          setOpen={setOpen}
          onStar={(on) => apply([open.node], { kind: 'star', on })}
          onRestore={() => apply([open.node], { kind: 'restore' })}
        />
      );
    case 'new-folder':
      return <NewFolderDialog parentId={parentId} onClose={close} />;
    case 'rename':
      return (
        <RenameDialog
          node={open.node}
          busy={action.isPending}
          error={failure}
          onSubmit={(name) => apply([open.node], { kind: 'rename', name })}
          onClose={close}
        />
      );
    case 'move':
      return (
        <MoveDialog
          nodes={open.nodes}
          busy={action.isPending}
          error={failure}
          onPick={(id) => apply(open.nodes, { kind: 'move', parentId: id })}
          onClose={close}
        />
      );
    case 'color':
      return <ColorDialog node={open.node} onPick={(color) => apply([open.node], { kind: 'color', color })} onClose={close} />;
    case 'versions':
      return <VersionsDialog node={open.node} onClose={close} />;
    case 'details':
      return <DetailsDialog node={open.node} onClose={close} />;
    case 'share':
      return (
        <Suspense fallback={null}>
          <ShareDialog node={open.node} onClose={close} />
        </Suspense>
      );
    case 'trash':
      return (
        <ConfirmDialog
          title={`Move ${label(open.nodes)} to the trash?`}
          message={<>{failure ? <Notice tone="error">{failure}</Notice> : 'You can restore from the trash until it is emptied.'}</>}
          confirm="Move to trash"
          danger
          busy={action.isPending}
          onConfirm={() => apply(open.nodes, { kind: 'trash' })}
          onClose={close}
        />
      );
    case 'purge':
      return (
        <ConfirmDialog
          title={`Delete ${label(open.nodes)} for good?`}
          message={<>{failure ? <Notice tone="error">{failure}</Notice> : 'This cannot be undone. Everything inside is deleted too.'}</>}
          confirm="Delete for good"
          danger
          busy={action.isPending}
          onConfirm={() => apply(open.nodes, { kind: 'purge' })}
          onClose={close}
        />
      );
  }
}

function ActionSheet({
  node,
  inTrash,
  setOpen,
  onStar,
  onRestore,
}: {
  node: Node;
  inTrash: boolean;
  setOpen: (open: Open | null) => void;
  onStar: (on: boolean) => void;
  onRestore: () => void;
}) {
  // The sheet stays until the server has made the file's link: if it cannot, it says why here.
  const [downloadFailed, setDownloadFailed] = useState<string | null>(null);
  const toPrivate = useMoveToPrivate();
  const keep = useKeepCopy();
  const item = (icon: Parameters<typeof Icon>[0]['name'], text: string, onClick: () => void, danger = false) => (
    <li>
      <button type="button" className={danger ? 'danger' : undefined} onClick={onClick}>
        <Icon name={icon} />
        {text}
      </button>
    </li>
  );
  return (
    <Dialog title={node.name} onClose={() => setOpen(null)}>
      {downloadFailed && <Notice tone="error">{downloadFailed}</Notice>}
      {toPrivate.isError && <Notice tone="error">{toPrivate.error.message}</Notice>}
      <KeptNotice keep={keep} onLeave={() => setOpen(null)} />
      <ul className="menu" aria-label={`Actions for ${node.name}`}>
        {inTrash ? (
          <>
            {item('restore', 'Restore', onRestore)}
            {item('trash', 'Delete for good', () => setOpen({ kind: 'purge', nodes: [node] }), true)}
          </>
        ) : (
          <>
            {node.type === 'file' &&
              item('download', 'Download', () => {
                setDownloadFailed(null);
                startDownload(node).then(
                  () => setOpen(null),
                  (error: unknown) => setDownloadFailed(error instanceof Error ? error.message : 'The download could not start.'),
                );
              })}
            {/* Someone else's file, shared with this person: theirs to keep, without a download and upload. */}
            {node.shared && node.type === 'file' && item('copy', 'Keep a copy', () => keep.mutate(node.id))}
            {!node.shared && item('share', 'Share', () => setOpen({ kind: 'share', node }))}
            {item('info', 'Details', () => setOpen({ kind: 'details', node }))}
            {item('star', node.starred ? 'Remove from favourites' : 'Favourite', () => onStar(!node.starred))}
            {item('file', 'Rename', () => setOpen({ kind: 'rename', node }))}
            {item('folder', 'Move', () => setOpen({ kind: 'move', nodes: [node] }))}
            {!node.shared && item('lock', 'Move to Private', () => toPrivate.mutate(node, { onSuccess: () => setOpen(null) }))}
            {node.type === 'folder' && item('grid', 'Colour', () => setOpen({ kind: 'color', node }))}
            {node.type === 'file' && item('clock', 'Versions', () => setOpen({ kind: 'versions', node }))}
            {item('trash', 'Move to trash', () => setOpen({ kind: 'trash', nodes: [node] }), true)}
          </>
        )}
      </ul>
    </Dialog>
  );
}

function NewFolderDialog({ parentId, onClose }: { parentId: string | null; onClose: () => void }) {
  const [name, setName] = useState('');
  const [key] = useState(idempotencyKey);
  const create = useCreateFolder();
  return (
    <Dialog title="New folder" onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate({ name: name.trim(), parentId, key }, { onSuccess: onClose });
        }}
      >
        <Field label="Folder name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        {create.isError && <Notice tone="error">{create.error.message}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={create.isPending || name.trim() === ''}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RenameDialog({
  node,
  busy,
  error,
  onSubmit,
  onClose,
}: {
  node: Node;
  busy: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(node.name);
  return (
    <Dialog title="Rename" onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit(name.trim());
        }}
      >
        <Field label="New name" value={name} onChange={(e) => setName(e.target.value)} autoFocus onFocus={(e) => e.target.select()} />
        {error && <Notice tone="error">{error}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy || name.trim() === '' || name.trim() === node.name}>
            Rename
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Move into a folder; the items being moved cannot be entered (a folder cannot go inside itself). */
function MoveDialog({
  nodes,
  busy,
  error,
  onPick,
  onClose,
}: {
  nodes: Node[];
  busy: boolean;
  error: string | null;
  onPick: (id: string | null) => void;
  onClose: () => void;
}) {
  const moving = new Set(nodes.map((n) => n.id));
  return (
    <FolderPicker
      title={`Move ${label(nodes)}`}
      offered={(folder) => !moving.has(folder.id)}
      // Where everything already is: nothing to move, so the button says so and rests.
      choice={(here) =>
        nodes.every((n) => (n.parent_id ?? null) === (here?.id ?? null))
          ? { label: 'Already here', disabled: true }
          : { label: `Move to ${here?.name ?? 'My files'}`, disabled: false }
      }
      busy={busy}
      error={error}
      onPick={(folder) => onPick(folder?.id ?? null)}
      onClose={onClose}
    />
  );
}

const COLORS: { color: NodeColor | null; name: string }[] = [
  { color: null, name: 'No colour' },
  { color: 'blue', name: 'Blue' },
  { color: 'green', name: 'Green' },
  { color: 'orange', name: 'Orange' },
  { color: 'red', name: 'Red' },
  { color: 'purple', name: 'Purple' },
  { color: 'teal', name: 'Teal' },
  { color: 'neutral', name: 'Grey' },
];

function ColorDialog({ node, onPick, onClose }: { node: Node; onPick: (color: NodeColor | null) => void; onClose: () => void }) {
  return (
    <Dialog title={`Colour of ${node.name}`} onClose={onClose}>
      <div className="swatches" role="group" aria-label="Colours">
        {COLORS.map(({ color, name }) => (
          <button
            key={name}
            type="button"
            className={`swatch color-${color ?? 'none'}`}
            aria-pressed={node.color === color}
            onClick={() => onPick(color)}
          >
            <Icon name="folder" />
            {name}
          </button>
        ))}
      </div>
    </Dialog>
  );
}

function VersionsDialog({ node, onClose }: { node: Node; onClose: () => void }) {
  const versions = useVersions(node.id);
  const restore = useRestoreVersion(node);
  const people = useQuery(personNamesQuery);
  return (
    <Dialog title={`Versions of ${node.name}`} onClose={onClose}>
      {versions.isPending && <Spinner label="Loading versions" />}
      {versions.isError && <Notice tone="error">{versions.error.message}</Notice>}
      {restore.isError && <Notice tone="error">{restore.error.message}</Notice>}
      <ul className="version-list" aria-label="Versions">
        {versions.data?.map((v, i) => (
          <li key={v.id}>
            <div>
              <strong>{i === 0 ? 'Current version' : `Version ${v.version}`}</strong>
              <div className="muted">
                {formatDate(v.created_at)} · {formatBytes(v.size)} · {people.data?.get(v.created_by) ?? 'someone'}
              </div>
            </div>
            {i > 0 && (
              <Button onClick={() => restore.mutate(v.id)} disabled={restore.isPending} aria-label={`Restore version ${v.version}`}>
                Restore
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

export function DetailsDialog({ node, onClose }: { node: Node; onClose: () => void }) {
  const people = useQuery(personNamesQuery);
  const grants = useNodeGrants(node);
  const rows: [string, string][] = [
    ['Kind', node.type === 'folder' ? 'Folder' : (node.mime_type ?? 'File')],
    ...(node.type === 'file' ? ([['Size', formatBytes(node.size)]] as [string, string][]) : []),
    ['Added', formatDate(node.created_at)],
    ['Changed', formatDate(node.updated_at)],
    ...(node.taken_at !== undefined ? ([['Taken', formatTakenFull(node) ?? '']] as [string, string][]) : []),
    ...(node.image_width && node.image_height
      ? ([['Dimensions', `${node.image_width} × ${node.image_height}`]] as [string, string][])
      : []),
    ['Owner', people.data?.get(node.owner_id) ?? (node.shared ? 'Someone in the family' : 'You')],
    [
      'Shared with',
      node.shared
        ? 'You'
        : grants.data
          ? grants.data.length
            ? grants.data.map((p) => `${p.name} (${p.role === 'editor' ? 'can edit' : 'can view'})`).join(', ')
            : 'Nobody'
          : '…',
    ],
  ];
  return (
    <Dialog title={node.name} onClose={onClose}>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
