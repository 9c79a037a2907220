import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { Notice, ProgressBar, Spinner } from '../../../ui/Notice.tsx';
import { consoleKeys } from '../keys.ts';
import { FACE_SPEEDS, faceSpeedWords, faceStateWords, faceTimeLeftWords, facesDoneWords } from './faceWords.ts';
import { useFaceFinding, type FaceFinding as Finding } from './queries.ts';

type Choice = { paused?: boolean; speed?: Finding['speed'] };

/**
 * People in photos: Hearth looks at every photo on this PC for faces. The owner sees how far it
 * has got and how fast, switches it off for a while (its worker then stops), and chooses how much
 * of the computer it may take. Kept live by faces.progress events.
 */
export function FaceFinding() {
  const finding = useFaceFinding();
  const queryClient = useQueryClient();
  /** The owner's choice while it is being saved: the controls follow the click at once, not the answer. */
  const [choosing, setChoosing] = useState<Choice | null>(null);
  const change = useMutation({
    mutationFn: (body: Choice) => data(api.PATCH('/admin/faces', { body })),
    onSuccess: (next) => queryClient.setQueryData(consoleKeys.faces, next),
    onSettled: () => setChoosing(null),
  });
  const choose = (body: Choice) => {
    setChoosing(body);
    change.mutate(body);
  };

  return (
    <section className="console-section" aria-labelledby="faces-title">
      <h2 id="faces-title">People in photos</h2>
      <p className="muted section-lead">
        Hearth looks at each photo for faces, so you can find everyone’s photos by who is in them. It all happens on this computer: no photo
        and no face leaves the house.
      </p>
      {finding.isPending && <Spinner label="Loading face finding" />}
      {finding.isError && <Notice tone="error">{finding.error.message}</Notice>}
      {finding.data && (
        <div className="card console-card faces-card">
          <Progress finding={finding.data} />
          {finding.data.available && (
            <>
              <div className="choice">
                <label>
                  <input
                    type="checkbox"
                    role="switch"
                    checked={!(choosing?.paused ?? finding.data.paused)}
                    disabled={change.isPending}
                    onChange={(event) => choose({ paused: !event.target.checked })}
                  />{' '}
                  Find faces
                  <span className="hint">
                    {(choosing?.paused ?? finding.data.paused)
                      ? 'Off for now: nothing runs, and new photos wait. People already found stay.'
                      : 'On: photos are looked at in the background. Switch off to give the computer a rest.'}
                  </span>
                </label>
              </div>
              <fieldset className="choice">
                <legend>How much of the computer it may use</legend>
                {FACE_SPEEDS.map(({ speed, label, hint }) => (
                  <label key={speed}>
                    <input
                      type="radio"
                      name="face-speed"
                      value={speed}
                      checked={(choosing?.speed ?? finding.data.speed) === speed}
                      disabled={change.isPending}
                      onChange={() => choose({ speed })}
                    />{' '}
                    {label}
                    <span className="hint">{hint}</span>
                  </label>
                ))}
                <p className="muted faces-note">Whichever you choose, your family’s uploads and browsing always come first.</p>
              </fieldset>
            </>
          )}
          {change.isError && <Notice tone="error">{change.error.message}</Notice>}
        </div>
      )}
    </section>
  );
}

/** How far it has got: the count and bar, then the speed and time left while it works. */
function Progress({ finding }: { finding: Finding }) {
  const speed = faceSpeedWords(finding);
  const left = faceTimeLeftWords(finding);
  return (
    <div className="faces-now" role="status">
      {finding.total > 0 && (
        <>
          <p>
            <strong>{facesDoneWords(finding)}</strong>
          </p>
          <ProgressBar value={finding.done / finding.total} label="Photos looked at for faces" />
        </>
      )}
      <p className="muted">{faceStateWords(finding)}</p>
      {finding.state === 'finding' && (
        <p className="faces-speed">
          {speed ?? 'Working out the speed…'}
          {left && ` · ${left}`}
        </p>
      )}
    </div>
  );
}
