import { generate } from 'lean-qr';
import { useMemo } from 'react';

/** The quiet zone a reader needs around a QR code, in modules. */
const QUIET_ZONE = 4;

/**
 * A QR code of `text`, drawn as one SVG path in the page (no markup strings, no canvas), so a phone
 * can read a link off the screen. Black on white whatever the theme: readers expect that contrast.
 */
export function QrCode({ text, label, size = 176 }: { text: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    const code = generate(text);
    let d = '';
    for (let y = 0; y < code.size; y += 1) {
      for (let x = 0; x < code.size; x += 1) {
        if (code.get(x, y)) d += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { path: d, modules: code.size + 2 * QUIET_ZONE };
  }, [text]);
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges" style={{ display: 'block', maxWidth: '100%', height: 'auto' }}>
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
