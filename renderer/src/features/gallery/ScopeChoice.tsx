import type { TimelineScope } from './scope.ts';
import './scope-choice.css';

const CHOICES: { value: TimelineScope; label: string }[] = [
  { value: 'mine', label: 'Mine' },
  { value: 'family', label: 'Everyone’s' },
];

/**
 * Whose photos Photos shows, as two radio buttons drawn as one pill: native radios, so a
 * keyboard moves between them with the arrows and a screen reader says "Whose photos".
 */
export function ScopeChoice({ value, onChange }: { value: TimelineScope; onChange: (scope: TimelineScope) => void }) {
  return (
    <fieldset className="scope-choice">
      <legend className="visually-hidden">Whose photos</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value} className={choice.value === value ? 'scope-option scope-option-on' : 'scope-option'}>
          <input
            type="radio"
            name="photos-scope"
            value={choice.value}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}
