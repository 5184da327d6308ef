// A QR code of a link drawn as SVG elements in the browser (the CSP allows SVG, not inline script): one path of dark
// modules on a white square, dark on light in both themes because scanners need it.
import { useMemo } from 'react';
import { encode } from 'uqr';

/** Light modules around the code, as the QR standard asks of scanners' quiet zone. */
const BORDER = 2;

export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const { modules, path } = useMemo(() => {
    const { data, size: count } = encode(value, { ecc: 'M', border: BORDER });
    const squares: string[] = [];
    data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) squares.push(`M${x} ${y}h1v1h-1z`);
      }),
    );
    return { modules: count, path: squares.join('') };
  }, [value]);

  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${modules} ${modules}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      data-qr-border={BORDER}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
