import { useEffect, useState } from 'react';

/**
 * Text as a QR code, drawn to a data URL (the CSP allows `img-src data:` and no inline
 * script). The qrcode library loads only when a code is first shown.
 */
export function QrImage({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const [image, setImage] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((QR) => QR.toDataURL(text, { margin: 2, width: size * 2, errorCorrectionLevel: 'M' }))
      .then((url) => live && setImage({ text, url }));
    return () => {
      live = false;
    };
  }, [text, size]);
  const url = image?.text === text ? image.url : null;
  return url ? (
    <img className="console-qr" src={url} alt={label} width={size} height={size} />
  ) : (
    <div className="console-qr" style={{ width: size, height: size }} aria-hidden="true" />
  );
}
