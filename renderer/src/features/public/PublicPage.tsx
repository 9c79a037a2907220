import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { API_BASE, data, publicApi } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import type { Answer } from '../../api/types.ts';

/** What a link shows of a node: never its owner's id. */
type Node = Answer<'/s/{token}', 'get'>['node'];
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import '../files/files.css';
import './public.css';

/** The unlock grant of a password-protected link, for this tab only. */
function grantKey(token: string) {
  return `hearth.grant.${token}`;
}

/**
 * `/s/<token>`: what someone shared by link, for people without an account. Password unlock,
 * folders with thumbnails, a viewer, download only when the owner allows it, and plain pages
 * for links that expired or were stopped.
 */
export function PublicPage() {
  const { token = '' } = useParams();
  const [grant, setGrant] = useState<string | null>(() => sessionStorage.getItem(grantKey(token)));
  const info = useQuery({
    queryKey: ['public', token, grant],
    retry: false,
    queryFn: () => data(publicApi.GET('/s/{token}', { params: { path: { token }, query: grant ? { grant } : {} } })),
  });

  if (info.isPending) {
    return (
      <main className="center-page">
        <Spinner label="Opening the link" />
      </main>
    );
  }
  if (info.isError) {
    const error = info.error as ApiError;
    if (error.code === 'share_password_required') {
      return (
        <Unlock
          token={token}
          onUnlocked={(g) => {
            sessionStorage.setItem(grantKey(token), g);
            setGrant(g);
          }}
        />
      );
    }
    const title = error.code === 'share_expired' ? 'This link has expired' : error.code === 'network' ? "Can't reach the server" : "This link doesn't work";
    const text =
      error.code === 'share_expired'
        ? 'The person who shared it set an end date. Ask them for a new link.'
        : error.code === 'network'
          ? error.message
          : 'It may have been stopped by the person who shared it, or the address is not complete. Ask them for a new link.';
    return (
      <PublicFrame>
        <h1>{title}</h1>
        <p>{text}</p>
      </PublicFrame>
    );
  }
  const share = info.data;
  return (
    <PublicFrame>
      <p className="muted">{share.owner_name} shared this with you{share.expires_at ? ` until ${formatDate(share.expires_at)}` : ''}.</p>
      {share.node.type === 'folder' ? (
        <SharedFolder token={token} grant={grant} root={share.node} allowDownload={share.allow_download} />
      ) : (
        <SharedFile token={token} grant={grant} node={share.node} allowDownload={share.allow_download} root />
      )}
    </PublicFrame>
  );
}

function PublicFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="public">
      <header className="public-bar">
        <img src="/icon.svg" alt="" width="32" height="32" />
        <span>Hearth</span>
      </header>
      <main className="public-main">{children}</main>
    </div>
  );
}

function Unlock({ token, onUnlocked }: { token: string; onUnlocked: (grant: string) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = await data(publicApi.POST('/s/{token}/unlock', { params: { path: { token } }, body: { password } }));
      onUnlocked(body.grant);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicFrame>
      <h1>This link is protected</h1>
      <p>Enter the password the person who shared it gave you.</p>
      <form onSubmit={submit} className="public-form">
        <Field label="Password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        {error && <Notice tone="error">{error}</Notice>}
        <Button type="submit" variant="primary" disabled={busy || !password}>
          Open
        </Button>
      </form>
    </PublicFrame>
  );
}

function publicUrl(token: string, what: 'thumbnail' | 'download', node: Node | null, grant: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (node) query.set('node_id', node.id);
  if (grant) query.set('grant', grant);
  return `${API_BASE}/s/${encodeURIComponent(token)}/${what}?${query}`;
}

function SharedFolder({ token, grant, root, allowDownload }: { token: string; grant: string | null; root: Node; allowDownload: boolean }) {
  const [trail, setTrail] = useState<Node[]>([root]);
  const [viewing, setViewing] = useState<Node | null>(null);
  const here = trail.at(-1)!;
  const children = useQuery({
    queryKey: ['public', token, grant, 'children', here.id],
    queryFn: () => data(publicApi.GET('/s/{token}/children', { params: { path: { token }, query: { ...(here.id !== root.id ? { parent_id: here.id } : {}), ...(grant ? { grant } : {}), limit: 1000 } } })),
  });
  return (
    <>
      <h1>{here.name}</h1>
      {trail.length > 1 && (
        <nav aria-label="Folder path" className="crumbs">
          {trail.map((folder, i) => (
            <span key={folder.id}>
              {i > 0 && <span aria-hidden="true"> › </span>}
              {i < trail.length - 1 ? (
                <button type="button" className="btn btn-quiet" onClick={() => setTrail(trail.slice(0, i + 1))}>
                  {folder.name}
                </button>
              ) : (
                <span aria-current="page">{folder.name}</span>
              )}
            </span>
          ))}
        </nav>
      )}
      {children.isPending && <Spinner label="Loading" />}
      {children.isError && <Notice tone="error">{children.error.message}</Notice>}
      {children.data?.items.length === 0 && <p className="muted">This folder is empty.</p>}
      <ul className="node-grid" aria-label="Shared files">
        {children.data?.items.map((node) => (
          <li key={node.id} className="node-row">
            <button type="button" className="node-main" onClick={() => (node.type === 'folder' ? setTrail([...trail, node]) : setViewing(node))}>
              {node.has_thumbnail ? (
                <img className="node-thumb" src={publicUrl(token, 'thumbnail', node, grant)} alt="" loading="lazy" />
              ) : (
                <span className={`node-icon node-icon-${node.type === 'folder' ? 'folder' : 'file'}`}>
                  <Icon name={node.type === 'folder' ? 'folder' : 'file'} />
                </span>
              )}
              <span className="node-text">
                <span className="node-name">{node.name}</span>
                <span className="node-meta">{node.type === 'file' ? formatBytes(node.size) : 'Folder'}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {viewing && (
        <Dialog title={viewing.name} onClose={() => setViewing(null)} wide>
          <SharedFile token={token} grant={grant} node={viewing} allowDownload={allowDownload} root={false} />
        </Dialog>
      )}
    </>
  );
}

function SharedFile({ token, grant, node, allowDownload, root }: { token: string; grant: string | null; node: Node; allowDownload: boolean; root: boolean }) {
  const target = root ? null : node;
  const video = node.mime_type?.startsWith('video/');
  return (
    <div className="shared-file">
      {root && <h1>{node.name}</h1>}
      {video && allowDownload ? (
        <video className="shared-preview" controls playsInline preload="metadata" src={publicUrl(token, 'download', target, grant, { inline: '1' })} aria-label={node.name} />
      ) : node.has_thumbnail ? (
        <img className="shared-preview" src={publicUrl(token, 'thumbnail', target, grant, { size: '1024' })} alt={node.name} />
      ) : (
        <div className="node-icon shared-icon">
          <Icon name="file" />
        </div>
      )}
      <p className="muted">
        {formatBytes(node.size)} · {formatDate(node.updated_at)}
      </p>
      {allowDownload ? (
        <a className="btn btn-primary" href={publicUrl(token, 'download', target, grant)} download={node.name}>
          <Icon name="download" />
          Download
        </a>
      ) : (
        <p className="muted">The person who shared this turned downloads off.</p>
      )}
    </div>
  );
}

