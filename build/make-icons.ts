// Generates the app and tray icons in resources/ from a tiny vector description (four
// stacked stones, the cairn), with no image library and no download:
//   node build/make-icons.ts
// Writes icon.png (1024, used by electron-builder for Linux and macOS), icon.ico
// (16–256, Windows), tray.png / tray@2x.png, and trayTemplate.png / @2x (macOS menu bar).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';

type RGBA = [number, number, number, number];
interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  color: RGBA;
}

// In a 32×32 design space, matching the SVG mark of the UI.
const STONES: Ellipse[] = [
  { cx: 16, cy: 26, rx: 12, ry: 4.5, color: [15, 118, 110, 255] },
  { cx: 16, cy: 18, rx: 9, ry: 4, color: [20, 184, 166, 255] },
  { cx: 16, cy: 10.5, rx: 6, ry: 3.5, color: [94, 234, 212, 255] },
  { cx: 16, cy: 4.5, rx: 3.2, ry: 2.2, color: [153, 246, 228, 255] },
];

/** Renders with 4×4 supersampling; `background` fills a rounded square behind the stones. */
function render(size: number, options: { monochrome?: RGBA; background?: RGBA }): Buffer {
  const px = Buffer.alloc(size * size * 4);
  const ss = 4;
  const pad = options.background ? 0.16 : 0.04;
  const scale = (size * (1 - 2 * pad)) / 32;
  const offset = size * pad;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const fx = x + (sx + 0.5) / ss;
          const fy = y + (sy + 0.5) / ss;
          let c: RGBA | null = null;
          if (options.background && insideRoundedSquare(fx / size, fy / size)) {
            c = options.background;
          }
          const dx = (fx - offset) / scale;
          const dy = (fy - offset) / scale;
          for (const e of STONES) {
            const v = ((dx - e.cx) / e.rx) ** 2 + ((dy - e.cy) / e.ry) ** 2;
            if (v <= 1) c = options.monochrome ?? e.color;
          }
          if (c) {
            r += c[0] * c[3];
            g += c[1] * c[3];
            b += c[2] * c[3];
            a += c[3];
          }
        }
      }
      const i = (y * size + x) * 4;
      const n = ss * ss;
      px[i] = a ? Math.round(r / a) : 0;
      px[i + 1] = a ? Math.round(g / a) : 0;
      px[i + 2] = a ? Math.round(b / a) : 0;
      px[i + 3] = Math.round(a / n);
    }
  }
  return png(size, size, px);
}

function insideRoundedSquare(u: number, v: number): boolean {
  const m = 0.04;
  const rad = 0.2;
  if (u < m || v < m || u > 1 - m || v > 1 - m) return false;
  const cx = Math.min(Math.max(u, m + rad), 1 - m - rad);
  const cy = Math.min(Math.max(v, m + rad), 1 - m - rad);
  return (u - cx) ** 2 + (v - cy) ** 2 <= rad * rad;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** A minimal RGBA PNG (https://www.w3.org/TR/png/). */
export function png(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO holding PNG images (supported since Windows Vista). */
function ico(images: { size: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size;
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4);
    e.writeUInt16LE(32, 6);
    e.writeUInt32LE(data.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += data.length;
    return e;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

const out = resolve(import.meta.dirname, '..', 'resources');
mkdirSync(out, { recursive: true });
const appBg: RGBA = [240, 253, 250, 255];
writeFileSync(join(out, 'icon.png'), render(1024, { background: appBg }));
writeFileSync(
  join(out, 'icon.ico'),
  ico(
    [16, 24, 32, 48, 64, 128, 256].map((s) => ({
      size: s,
      data: render(s, { background: appBg }),
    })),
  ),
);
writeFileSync(join(out, 'tray.png'), render(16, {}));
writeFileSync(join(out, 'tray@2x.png'), render(32, {}));
writeFileSync(join(out, 'trayTemplate.png'), render(16, { monochrome: [0, 0, 0, 255] }));
writeFileSync(join(out, 'trayTemplate@2x.png'), render(32, { monochrome: [0, 0, 0, 255] }));
console.log(`icons written to ${out}`);
