import fs from 'node:fs';
import path from 'node:path';

export interface TreeFile {
  /** Relative to the tree's root, `/`-separated, NFC. */
  path: string;
  size: number;
}

/**
 * Folders of a tree a sync tool might meet: nested several deep, names with spaces, accents,
 * other scripts, an emoji, and characters a URL must escape (`#`, `%`, `&`, `+`, `'`).
 */
const FOLDERS = [
  '',
  'docs',
  'docs/2026',
  'docs/2026/Q4 reports',
  'photos/été à Orléans',
  'データ/サブ',
  'a/b/c/d/e',
  'odd #1 & 50% + it\'s',
  'emoji 🎉 party',
  'Ελληνικά',
];
const STEMS = ['file', 'naïve', 'Straße', '日本語', 'résumé', 'notes #', '100% done', 'Ωmega', 'plain'];

/** A small deterministic generator (mulberry32), so a failure names the same files on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes `count` files of mixed sizes under `root` (a few empty, most under 2 KiB, a quarter up to
 * 16 KiB, one in twenty up to 96 KiB: about 5 MiB for 1,000) and answers them. Every name differs
 * from every other even ignoring case, as Atrium's paths compare.
 */
export function generateTree(root: string, count: number, seed: number): TreeFile[] {
  const next = random(seed);
  const files: TreeFile[] = [];
  for (let i = 0; i < count; i += 1) {
    const folder = FOLDERS[i % FOLDERS.length] as string;
    const stem = STEMS[Math.floor(next() * STEMS.length)] as string;
    const name = `${stem}-${String(i).padStart(4, '0')}${i % 3 === 0 ? '.txt' : i % 3 === 1 ? '.bin' : ''}`;
    const roll = next();
    const size = i % 97 === 0 ? 0 : roll < 0.7 ? Math.floor(next() * 2048) : roll < 0.95 ? 2048 + Math.floor(next() * 14 * 1024) : 16 * 1024 + Math.floor(next() * 80 * 1024);
    const relative = folder === '' ? name : `${folder}/${name}`;
    const bytes = Buffer.alloc(size);
    for (let j = 0; j < size; j += 1) bytes[j] = Math.floor(next() * 256);
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, relative), bytes);
    files.push({ path: relative.normalize('NFC'), size });
  }
  return files;
}
