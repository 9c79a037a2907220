import { useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { copyText } from '../../ui/clipboard.ts';
import { linkFacts } from './link-facts.ts';
import { LinkForm } from './LinkForm.tsx';
import { QrCode } from './QrCode.tsx';
import type { LinkSettings, ShareLink } from './queries.ts';

type Open = 'none' | 'qr' | 'edit' | 'revoke';

/**
 * One link: its address to copy (the async clipboard where the page is a secure context, else
 * the selected field and the browser's copy command, else the person copies the selected
 * text), its QR code, its settings, and turning it off after a confirmation.
 */
export function LinkCard({
  link,
  updating,
  revoking,
  updateError,
  revokeError,
  onUpdate,
  onRevoke,
}: {
  link: ShareLink;
  updating: boolean;
  revoking: boolean;
  updateError: string | null;
  revokeError: string | null;
  onUpdate: (settings: LinkSettings, done: () => void) => void;
  onRevoke: (done: () => void) => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState<Open>('none');
  const [copied, setCopied] = useState<boolean | null>(null);
  // Turned-off links are not listed: a link that is not active has expired.
  const expired = !link.active;
  const toggle = (what: Open) => setOpen((current) => (current === what ? 'none' : what));

  return (
    <li className="link-card">
      <label className="visually-hidden" htmlFor={`link-${link.id}`}>
        Link address
      </label>
      <input
        ref={field}
        id={`link-${link.id}`}
        className="link-url"
        readOnly
        value={link.url}
        onFocus={(event) => event.currentTarget.select()}
        spellCheck={false}
      />
      <ul className="link-facts" aria-label="What this link allows">
        {linkFacts(link).map((fact) => (
          <li key={fact} className={fact.startsWith('Expired') ? 'fact fact-warn' : 'fact'}>
            {fact}
          </li>
        ))}
      </ul>
      <div className="share-row">
        <Button
          icon="copy"
          variant="primary"
          onClick={() =>
            void copyText(link.url, field.current).then((ok) => {
              setCopied(ok);
              if (!ok) field.current?.select();
            })
          }
        >
          Copy link
        </Button>
        <Button icon="qr" aria-expanded={open === 'qr'} onClick={() => toggle('qr')}>
          QR code
        </Button>
        <Button icon="edit" aria-expanded={open === 'edit'} onClick={() => toggle('edit')}>
          Settings
        </Button>
        <Button icon="close" aria-expanded={open === 'revoke'} onClick={() => toggle('revoke')}>
          Turn off
        </Button>
      </div>
      <div role="status" className="link-status">
        {copied === true && 'Link copied. Paste it in a message to share it.'}
        {copied === false &&
          'This browser would not copy it: the link is selected above, so copy it from there (press and hold it, or Ctrl+C).'}
      </div>
      {expired && open === 'none' && (
        <p className="muted">This link has expired. Open its settings to make it work again, with the same address.</p>
      )}
      {open === 'qr' && <QrCode text={link.url} label="QR code of the link" />}
      {open === 'edit' && (
        <LinkForm
          link={link}
          busy={updating}
          error={updateError}
          onSubmit={(settings) => onUpdate(settings, () => setOpen('none'))}
          onCancel={() => setOpen('none')}
        />
      )}
      {open === 'revoke' && (
        <div className="link-confirm">
          <p>
            <strong>Turn off this link?</strong> Anyone who has it will no longer be able to open it. This can't be undone: you can make a
            new link, with a new address.
          </p>
          {revokeError && <Notice tone="error">{revokeError}</Notice>}
          <div className="dialog-actions">
            <Button onClick={() => setOpen('none')}>Keep it</Button>
            <Button variant="danger" disabled={revoking} onClick={() => onRevoke(() => setOpen('none'))}>
              Turn off link
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}
