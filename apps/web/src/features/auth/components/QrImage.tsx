import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';

/** `value` drawn as a QR code into an <img> (crisp at 2× pixel density). */
export function QrImage({ value, size, alt }: { value: string; size: number; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    toDataURL(value, { width: size * 2, margin: 1, errorCorrectionLevel: 'M', color: { dark: '#1f1f1fff' } })
      .then((url) => {
        if (!cancelled) setSrc(url);
      })
      .catch(() => {
        if (!cancelled) setSrc(null);
      });
    return () => {
      cancelled = true;
    };
  }, [value, size]);

  if (!src) return <div style={{ width: size, height: size }} />;
  return <img src={src} width={size} height={size} alt={alt} data-testid="scan-qr" />;
}
