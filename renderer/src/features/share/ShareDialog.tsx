import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { copyText } from '../../ui/clipboard.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatDate } from '../../ui/format.ts';
import { useGrantMutations, useGrants, useLinkMutations, useLinks, usePeopleSearch, type ShareLink } from './queries.ts';
import './share.css';

/** Share one file or folder: with family members (viewer or editor), or by a public link. */
export function ShareDialog({ node, onClose }: { node: Node; onClose: () => void }) {
  const [tab, setTab] = useState<'people' | 'link'>('people');
  return (
    <Dialog title={`Share “${node.name}”`} onClose={onClose} wide>
      <div role="tablist" aria-label="Share with" className="tabs">
        <button type="button" role="tab" aria-selected={tab === 'people'} className="btn" onClick={() => setTab('people')}>
          Family members
        </button>
        <button type="button" role="tab" aria-selected={tab === 'link'} className="btn" onClick={() => setTab('link')}>
          Public link
        </button>
      </div>
      <div role="tabpanel">{tab === 'people' ? <People node={node} /> : <Links node={node} />}</div>
    </Dialog>
  );
}

function People({ node }: { node: Node }) {
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const grants = useGrants(node.id);
  const { grant, remove } = useGrantMutations(node.id);
  const [q, setQ] = useState('');
  const [role, setRole] = useState<'viewer' | 'editor'>('viewer');
  const people = usePeopleSearch(q.trim());
  const already = new Set((grants.data ?? []).map((g) => g.user_id));
  const candidates = (people.data ?? []).filter((p) => p.id !== me && !already.has(p.id));
  return (
    <>
      {grants.isPending && <Spinner label="Loading who has access" />}
      <ul className="people" aria-label="People with access">
        {grants.data?.map((g) => (
          <li key={g.user_id}>
            <span className="person">{g.name}</span>
            <select
              aria-label={`Access for ${g.name}`}
              value={g.role}
              onChange={(e) => grant.mutate({ userId: g.user_id, role: e.target.value as 'viewer' | 'editor' })}
            >
              <option value="viewer">Can view</option>
              <option value="editor">Can edit</option>
            </select>
            <Button onClick={() => remove.mutate(g.user_id)} aria-label={`Remove ${g.name}`}>
              Remove
            </Button>
          </li>
        ))}
        {grants.data?.length === 0 && <li className="muted">Only you can see this.</li>}
      </ul>
      <h3>Add someone</h3>
      <div className="row">
        <Field label="Find a family member" value={q} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
        <label className="sort">
          <span>They</span>
          <select value={role} onChange={(e) => setRole(e.target.value as 'viewer' | 'editor')}>
            <option value="viewer">can view</option>
            <option value="editor">can edit</option>
          </select>
        </label>
      </div>
      {(grant.isError || remove.isError) && <Notice tone="error">{(grant.error ?? remove.error)!.message}</Notice>}
      <ul className="menu" aria-label="Family members">
        {candidates.map((p) => (
          <li key={p.id}>
            <button type="button" onClick={() => grant.mutate({ userId: p.id, role })}>
              Share with {p.name}
            </button>
          </li>
        ))}
        {people.isSuccess && candidates.length === 0 && <li className="muted">Nobody else found.</li>}
      </ul>
    </>
  );
}

const DAY = 86_400_000;

function Links({ node }: { node: Node }) {
  const links = useLinks(node.id);
  const { create } = useLinkMutations(node.id);
  const active = (links.data ?? []).filter((l) => l.active);
  return (
    <>
      {links.isPending && <Spinner label="Loading links" />}
      {active.map((link) => (
        <LinkCard key={link.id} link={link} nodeId={node.id} />
      ))}
      {links.isSuccess && active.length === 0 && <p className="muted">No public link yet. Anyone with a link can open it without an account.</p>}
      {create.isError && <Notice tone="error">{create.error.message}</Notice>}
      <Button variant="primary" icon="add" disabled={create.isPending} onClick={() => create.mutate({ allow_download: true })}>
        Create a link
      </Button>
    </>
  );
}

function LinkCard({ link, nodeId }: { link: ShareLink; nodeId: string }) {
  const { update, revoke } = useLinkMutations(nodeId);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [showQr, setShowQr] = useState(false);
  const [password, setPassword] = useState('');
  const [days, setDays] = useState(() => (link.expires_at ? String(Math.max(1, Math.round((link.expires_at - Date.now()) / DAY))) : ''));
  useEffect(() => {
    if (!showQr) return;
    let live = true;
    void import('qrcode').then((QR) => QR.toDataURL(link.url, { margin: 1, width: 400 })).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [showQr, link.url]);
  // Shown as asked while the change travels (TanStack Query's optimistic update through the mutation's variables).
  const asked = update.isPending ? update.variables?.settings.allow_download : undefined;
  const allowDownload = asked ?? link.allow_download;
  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      id: link.id,
      settings: { expires_at: days.trim() ? Date.now() + Number(days) * DAY : null, ...(password ? { password } : {}) },
    });
    setPassword('');
  };
  return (
    <section className="link-card" aria-label="Public link">
      <div className="row">
        <label htmlFor={`link-${link.id}`} className="visually-hidden">
          Link address
        </label>
        <input id={`link-${link.id}`} ref={field} className="link-url" readOnly value={link.url} onFocus={(e) => e.target.select()} />
        <Button icon="check" onClick={() => void copyText(link.url, field.current).then(setCopied)}>
          Copy link
        </Button>
        <Button onClick={() => setShowQr(!showQr)} aria-expanded={showQr}>
          QR code
        </Button>
      </div>
      {copied === true && <p role="status">Copied.</p>}
      {copied === false && <p role="status">Copying is blocked here: press and hold the address to copy it.</p>}
      {showQr && (qr ? <img className="qr" src={qr} alt={`QR code of the link ${link.url}`} width="200" height="200" /> : <Spinner label="Drawing the QR code" />)}
      <p className="muted">
        {link.password_protected ? 'Needs a password. ' : 'No password. '}
        {link.expires_at ? `Works until ${formatDate(link.expires_at)}. ` : 'Never expires. '}
        {link.allow_download ? 'Downloads allowed.' : 'Viewing only, no downloads.'}
      </p>
      <label className="switch">
        <input type="checkbox" checked={allowDownload} onChange={(e) => update.mutate({ id: link.id, settings: { allow_download: e.target.checked } })} />
        Allow downloads
      </label>
      <form onSubmit={save} className="link-settings">
        <Field label="Expires after (days)" inputMode="numeric" hint="Empty: never expires." value={days} onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))} />
        <Field label={link.password_protected ? 'New password' : 'Password'} type="password" autoComplete="new-password" hint="At least 10 characters; leave empty to keep as is." value={password} onChange={(e) => setPassword(e.target.value)} />
        <div className="row">
          <Button type="submit" disabled={update.isPending}>
            Save link settings
          </Button>
          {link.password_protected && (
            <Button onClick={() => update.mutate({ id: link.id, settings: { password: null } })} disabled={update.isPending}>
              Remove password
            </Button>
          )}
          <Button variant="danger" onClick={() => revoke.mutate(link.id)} disabled={revoke.isPending}>
            Stop sharing this link
          </Button>
        </div>
      </form>
      {(update.isError || revoke.isError) && <Notice tone="error">{(update.error ?? revoke.error)!.message}</Notice>}
      {update.isSuccess && <p role="status">Saved. The link stays the same.</p>}
    </section>
  );
}
