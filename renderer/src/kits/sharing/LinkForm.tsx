import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { dayInput, expiryOf, formatUntil, type ExpiryChoice } from './expiry.ts';
import type { LinkSettings, ShareLink } from './queries.ts';

const MIN_PASSWORD = 10;

/**
 * A link's settings: how long it works, whether it asks for a password, whether it lets people
 * download. For an existing link only what changed is sent, and its address stays the same.
 */
export function LinkForm({
  link,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  link: ShareLink | null;
  busy: boolean;
  error: string | null;
  onSubmit: (settings: LinkSettings) => void;
  onCancel: () => void;
}) {
  const ids = useId();
  const [expiry, setExpiry] = useState<ExpiryChoice>(link ? 'keep' : 'week');
  const [today] = useState(() => dayInput(Date.now()));
  const [date, setDate] = useState(() => dayInput(Date.now() + 14 * 86_400_000));
  const [protect, setProtect] = useState(link?.password_protected ?? false);
  const [password, setPassword] = useState('');
  const [downloads, setDownloads] = useState(link?.allow_download ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const keepsPassword = link?.password_protected === true;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const settings: LinkSettings = {};
    if (protect && password.length > 0 && [...password].length < MIN_PASSWORD) {
      return setProblem(`Use at least ${MIN_PASSWORD} characters, so nobody can guess it.`);
    }
    if (protect && password.length === 0 && !keepsPassword) return setProblem('Type the password people will need.');
    if (protect && password.length > 0) settings.password = password;
    if (!protect && keepsPassword) settings.password = null;
    const expiresAt = expiryOf(expiry, date);
    if (expiry === 'date' && (expiresAt == null || expiresAt <= Date.now())) return setProblem('Choose a day from today on.');
    if (expiresAt !== undefined) settings.expires_at = expiresAt;
    if (!link || downloads !== link.allow_download) settings.allow_download = downloads;
    setProblem(null);
    onSubmit(settings);
  };

  return (
    <form className="link-form" onSubmit={submit} aria-label={link ? 'Link settings' : 'New link'}>
      <div className="field">
        <label htmlFor={`${ids}-expiry`}>Link works</label>
        <select id={`${ids}-expiry`} value={expiry} onChange={(event) => setExpiry(event.target.value as ExpiryChoice)}>
          {link && (
            <option value="keep">{link.expires_at === null ? 'Keep: no end date' : `Keep: until ${formatUntil(link.expires_at)}`}</option>
          )}
          <option value="day">For 1 day</option>
          <option value="week">For 1 week</option>
          <option value="month">For 1 month</option>
          <option value="never">Until I turn it off</option>
          <option value="date">Until a date I choose…</option>
        </select>
      </div>
      {expiry === 'date' && (
        <Field label="Last day it works" type="date" min={today} value={date} onChange={(event) => setDate(event.target.value)} />
      )}

      <label className="check">
        <input type="checkbox" checked={protect} onChange={(event) => setProtect(event.target.checked)} />
        <span>Ask for a password</span>
      </label>
      {protect && (
        <Field
          label={keepsPassword ? 'New password' : 'Password'}
          type="text"
          autoComplete="off"
          spellCheck={false}
          hint={
            keepsPassword
              ? 'Leave it empty to keep the current password.'
              : 'Tell it to the people you send the link to (not in the same message).'
          }
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      )}

      <label className="check">
        <input type="checkbox" checked={downloads} onChange={(event) => setDownloads(event.target.checked)} />
        <span>Let people download</span>
      </label>
      <p className="muted check-hint">
        {downloads ? 'They can save the files to their device.' : 'They can look at photos, but not save them or play videos.'}
      </p>

      {(problem || error) && <Notice tone="error">{problem ?? error}</Notice>}
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Saving…' : link ? 'Save changes' : 'Create link'}
        </Button>
      </div>
    </form>
  );
}
