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

/** A small deterministic generator (mulberry32): the same bytes on every run. */
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
 * The sizes a sync tool meets, taken in turn so that even a small tree holds each: empty, small,
 * a few KiB, and past 64 KiB (more than one chunk of a Node.js stream and two of rclone's 32 KiB
 * SFTP writes, so a file arrives in several pieces through every door). Seven, so that ten folders
 * each get every size once in seventy files, and a tree of seven or more holds them all.
 */
const SIZES: readonly { min: number; max: number }[] = [
  { min: 0, max: 0 },
  { min: 1, max: 2 * 1024 },
  { min: 2 * 1024, max: 16 * 1024 },
  { min: 1, max: 2 * 1024 },
  { min: 64 * 1024 + 1, max: 96 * 1024 },
  { min: 1, max: 2 * 1024 },
  { min: 2 * 1024, max: 16 * 1024 },
];

/**
 * Writes `count` files under `root` and answers them: each folder of FOLDERS, stem of STEMS, size
 * of SIZES and extension (`.txt`, `.bin`, none) in turn, so any tree of ten files or more reaches
 * every folder and one of seven or more every size; about 15 KiB a file on average. Every name differs from
 * every other even ignoring case, as Atrium's paths compare. The bytes are random but the same on
 * every run (seeded), so a failure names the same files.
 */
export function generateTree(root: string, count: number, seed: number): TreeFile[] {
  const next = random(seed);
  const files: TreeFile[] = [];
  for (let i = 0; i < count; i += 1) {
    const folder = FOLDERS[i % FOLDERS.length] as string;
    const stem = STEMS[i % STEMS.length] as string;
    const name = `${stem}-${String(i).padStart(4, '0')}${i % 3 === 0 ? '.txt' : i % 3 === 1 ? '.bin' : ''}`;
    const { min, max } = SIZES[i % SIZES.length] as { min: number; max: number };
    const size = min + Math.floor(next() * (max - min + 1));
    const relative = folder === '' ? name : `${folder}/${name}`;
    const bytes = Buffer.alloc(size);
    for (let j = 0; j < size; j += 1) bytes[j] = Math.floor(next() * 256);
    fs.mkdirSync(path.join(root, folder), { recursive: true });
    fs.writeFileSync(path.join(root, relative), bytes);
    files.push({ path: relative.normalize('NFC'), size });
  }
  return files;
}
