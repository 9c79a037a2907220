import { Fragment } from 'react';
import './fingerprint.css';

/**
 * A certificate's SHA-256 fingerprint as a phone shows it when installing it (colon-separated
 * hex), to compare byte by byte: the guided page and the owner's Connect page print the same
 * value from the server. It wraps only between bytes, never inside one.
 */
export function Fingerprint({ value, label }: { value: string; label?: string }) {
  const bytes = value.split(':');
  return (
    <span className="fingerprint" aria-label={label}>
      {bytes.map((byte, i) => (
        <Fragment key={i}>
          {byte}
          {i < bytes.length - 1 && (
            <>
              :<wbr />
            </>
          )}
        </Fragment>
      ))}
    </span>
  );
}
