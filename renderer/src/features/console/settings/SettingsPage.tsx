import { useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client.ts';
import { settingsQuery, statusQuery } from '../../../api/queries.ts';
import { Button } from '../../../ui/Button.tsx';
import { Field } from '../../../ui/Field.tsx';
import { Notice, Spinner } from '../../../ui/Notice.tsx';
import { ConsoleLayout } from '../ConsoleLayout.tsx';
import { useSettings, type Settings } from './queries.ts';
import './settings.css';

const GB = 1024 ** 3;

export function SettingsPage() {
  const settings = useSettings();
  const queryClient = useQueryClient();
  // Lives above the form: saving refills the form (it is keyed by the saved values), and "Saved." stays.
  const save = useMutation({
    mutationFn: (body: Partial<Settings>) => data(api.PATCH('/server/settings', { body })),
    onSuccess: (next) => {
      queryClient.setQueryData(settingsQuery.queryKey, next);
      void queryClient.invalidateQueries({ queryKey: statusQuery.queryKey });
    },
  });
  return (
    <ConsoleLayout title="Settings">
      {settings.isPending && <Spinner label="Loading settings" />}
      {settings.isError && <Notice tone="error">{settings.error.message}</Notice>}
      {/* Keyed by the saved values: a change made elsewhere (another tab, another owner) refills the form. */}
      {settings.data && <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} save={save} />}
    </ConsoleLayout>
  );
}

type Save = UseMutationResult<Settings, Error, Partial<Settings>>;

function SettingsForm({ saved, save }: { saved: Settings; save: Save }) {
  const quotaId = useId();
  const [name, setName] = useState(saved.server_name);
  const [approval, setApproval] = useState(saved.require_device_approval);
  const [open, setOpen] = useState(saved.allow_self_registration);
  const [tokensInUrls, setTokensInUrls] = useState(saved.session_tokens_in_urls);
  const [trashDays, setTrashDays] = useState(String(saved.trash_retention_days));
  const [unlimited, setUnlimited] = useState(saved.default_quota_bytes === null);
  const [quotaGb, setQuotaGb] = useState(
    saved.default_quota_bytes === null ? '50' : String(Math.round((saved.default_quota_bytes / GB) * 10) / 10),
  );
  const [problem, setProblem] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const days = Number(trashDays);
    const quota = Number(quotaGb);
    if (!name.trim()) return setProblem('Give this Hearth a name.');
    if (!Number.isInteger(days) || days < 1 || days > 3650) return setProblem('Keep deleted files for 1 to 3650 days.');
    if (!unlimited && !(quota > 0)) return setProblem('The storage limit must be more than 0 GB, or choose no limit.');
    setProblem(null);
    save.mutate({
      server_name: name.trim(),
      require_device_approval: approval,
      allow_self_registration: open,
      trash_retention_days: days,
      default_quota_bytes: unlimited ? null : Math.round(quota * GB),
      session_tokens_in_urls: tokensInUrls,
    });
  }

  return (
    <form className="card console-card settings-form" onSubmit={submit} noValidate>
      <Field
        label="Name of this Hearth"
        hint="Shown on the sign-in page and on every phone."
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset className="choice">
        <legend>Who gets in</legend>
        <label>
          <input type="checkbox" checked={approval} onChange={(e) => setApproval(e.target.checked)} /> New phones and computers wait for my
          approval
          <span className="hint">Someone signing in on a new device waits until you approve it under Devices, with a code to compare.</span>
        </label>
        <label>
          <input type="checkbox" checked={open} onChange={(e) => setOpen(e.target.checked)} /> Anyone on the home network may create an
          account
          <span className="hint">Off: only people you invite can join. Leave it off unless you trust everyone on your Wi-Fi.</span>
        </label>
      </fieldset>
      <Field
        label="Days deleted files stay in the trash"
        hint="After that they are deleted for good."
        type="number"
        inputMode="numeric"
        min={1}
        max={3650}
        value={trashDays}
        onChange={(e) => setTrashDays(e.target.value)}
      />
      <fieldset className="choice">
        <legend>Storage limit for new accounts</legend>
        <label>
          <input type="checkbox" checked={unlimited} onChange={(e) => setUnlimited(e.target.checked)} /> No limit
        </label>
        {!unlimited && (
          <div className="field">
            <label htmlFor={quotaId}>Limit in GB</label>
            <input
              id={quotaId}
              type="number"
              inputMode="decimal"
              min="0.1"
              step="0.1"
              value={quotaGb}
              onChange={(e) => setQuotaGb(e.target.value)}
            />
            <span className="hint">Applies to accounts made from now on. Change one account's limit under People.</span>
          </div>
        )}
      </fieldset>
      <fieldset className="choice">
        <legend>Other apps</legend>
        <label>
          <input type="checkbox" checked={tokensInUrls} onChange={(e) => setTokensInUrls(e.target.checked)} /> Apps may open files with the
          account&apos;s sign-in in the file&apos;s address
          <span className="hint">
            Some apps written for Hearth open photos and downloads this way; Hearth&apos;s own app never does. Turn it off if no one uses
            such an app: an address like that can stay in a browser&apos;s history.
          </span>
        </label>
      </fieldset>
      {problem && <Notice tone="error">{problem}</Notice>}
      {save.isError && <Notice tone="error">{save.error.message}</Notice>}
      {save.isSuccess && <Notice>Saved.</Notice>}
      <Button type="submit" variant="primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </Button>
    </form>
  );
}
