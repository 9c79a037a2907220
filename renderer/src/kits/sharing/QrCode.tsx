import { useEffect, useState } from 'react';

/**
 * A link as a QR code, drawn to a data URL (the page's CSP allows `img-src data:`; no inline
 * script). The qrcode library loads only when a code is first shown.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [image, setImage] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((QR) => QR.toDataURL(text, { margin: 2, width: 480, errorCorrectionLevel: 'M' }))
      .then((url) => live && setImage({ text, url }));
    return () => {
      live = false;
    };
  }, [text]);
  const url = image?.text === text ? image.url : null;
  return (
    <figure className="qr-box">
      {url ? <img className="share-qr" src={url} alt={label} width="220" height="220" /> : <div className="share-qr" aria-hidden="true" />}
      <figcaption className="muted">Point a phone's camera at this code to open the link.</figcaption>
    </figure>
  );
}
