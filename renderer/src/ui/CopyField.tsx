import { useId, useRef, useState } from 'react';
import { Button } from './Button.tsx';
import { copyText } from './clipboard.ts';
import './copy-field.css';

/** A value to pass on (a link, an address, a temporary password): readable, selectable, and one tap to copy. */
export function CopyField({ label, value, big }: { label: string; value: string; big?: boolean }) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        {/* A textarea, not an input: the whole value stays readable, wrapped, on a narrow phone. */}
        <textarea
          id={id}
          ref={field}
          className={big ? 'copy-value copy-big' : 'copy-value'}
          readOnly
          rows={Math.min(4, Math.max(1, Math.ceil(value.length / (big ? 26 : 30))))}
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          icon={copied === true ? 'check' : 'copy'}
          onClick={() => void copyText(value, field.current).then(setCopied)}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          Copy
        </Button>
      </div>
      <p className="copy-status" role="status">
        {copied === true ? 'Copied.' : copied === false ? 'Copying is blocked here: select the text and copy it yourself.' : ''}
      </p>
    </div>
  );
}
