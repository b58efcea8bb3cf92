import type { Row } from '../seed/bulk-writer.js';

/**
 * The names of the search section's site: `departments` folders of `projects` folders each, full
 * of files named as people name them (`Quarterly-Budget-Review 2291.xlsx`, `Übersicht café 0042.pdf`),
 * from word lists, so that a part of a name matches a few names, or a few hundred, as in life.
 * Deterministic: every run searches the same site.
 */
export interface SearchCorpus {
  /** Rows of `entries` (path, path key, parent key, type, size, storage key, created, modified). */
  rows: Row[];
  /** The files' names, to pick search texts from. */
  fileNames: string[];
  /** The departments' folder names (below the corpus folder). */
  departments: string[];
}

const WORDS = [
  'quarterly', 'budget', 'review', 'report', 'invoice', 'contract', 'minutes', 'meeting', 'roadmap', 'design', 'draft', 'final', 'summary',
  'forecast', 'payroll', 'audit', 'proposal', 'schedule', 'inventory', 'customer', 'supplier', 'marketing', 'campaign', 'launch', 'research',
  'analysis', 'presentation', 'training', 'policy', 'handbook', 'onboarding', 'expenses', 'receipts', 'travel', 'plan', 'notes', 'backup',
  'export', 'import', 'archive', 'legal', 'compliance', 'security', 'incident', 'postmortem', 'release', 'changelog', 'specification',
  'Résumé', 'Übersicht', 'café', 'Ørsted', 'naïve', 'Straße', 'façade', '東京', 'データ', 'отчёт', 'año', 'crème',
] as const;
const SEPARATORS = ['-', '_', ' ', '.'] as const;
const EXTENSIONS = ['pdf', 'docx', 'xlsx', 'pptx', 'txt', 'csv', 'png', 'jpg', 'md', 'zip'] as const;

/** A small, seeded pseudo-random sequence (mulberry32): the same site on every run. */
function sequence(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `total` entries below `base` (a qualified site path, display spelling), folders included. */
export function searchCorpus(base: string, total: number, now: number): SearchCorpus {
  const next = sequence(35);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const capitalised = (word: string) => (next() < 0.3 ? word.charAt(0).toUpperCase() + word.slice(1) : word);
  const departments = Array.from({ length: 20 }, (_, d) => `${capitalised(pick(WORDS))} dept ${String(d + 1).padStart(2, '0')}`);
  const projectsPerDepartment = 25;
  const folders = departments.length * (1 + projectsPerDepartment);
  const filesPerProject = Math.max(1, Math.ceil((total - folders) / (departments.length * projectsPerDepartment)));
  const rows: Row[] = [];
  const fileNames: string[] = [];
  const entry = (path: string, type: 'directory' | 'file', size: number | null): Row => {
    const slash = path.lastIndexOf('/');
    const key = (text: string) => text.normalize('NFC').toLowerCase();
    return [path, key(path), slash === -1 ? '' : key(path.slice(0, slash)), type, size, null, now, now];
  };
  for (const department of departments) {
    const departmentPath = `${base}/${department}`;
    rows.push(entry(departmentPath, 'directory', null));
    for (let p = 1; p <= projectsPerDepartment; p += 1) {
      const projectPath = `${departmentPath}/${capitalised(pick(WORDS))} ${String(p).padStart(2, '0')}`;
      rows.push(entry(projectPath, 'directory', null));
      const taken = new Set<string>();
      for (let f = 0; f < filesPerProject; f += 1) {
        let name: string;
        do {
          const words = Array.from({ length: 1 + Math.floor(next() * 3) }, () => capitalised(pick(WORDS)));
          name = `${words.join(pick(SEPARATORS))} ${String(Math.floor(next() * 10_000)).padStart(4, '0')}.${pick(EXTENSIONS)}`;
        } while (taken.has(name.toLowerCase()));
        taken.add(name.toLowerCase());
        fileNames.push(name);
        rows.push(entry(`${projectPath}/${name}`, 'file', 1 + Math.floor(next() * 1_000_000)));
      }
    }
  }
  return { rows, fileNames, departments };
}

/**
 * `count` search texts: each a part of a file's name (`length` characters from somewhere inside
 * it, in another case half the time), so every search finds something and no two are alike, as
 * people type them; the same on every run.
 */
export function searchTexts(fileNames: readonly string[], count: number, length: readonly [number, number]): string[] {
  const next = sequence(2026);
  const texts = new Set<string>();
  while (texts.size < count) {
    const name = Array.from(fileNames[Math.floor(next() * fileNames.length)] as string);
    const size = length[0] + Math.floor(next() * (length[1] - length[0] + 1));
    if (name.length < size) continue;
    const start = Math.floor(next() * (name.length - size + 1));
    const part = name.slice(start, start + size).join('');
    // A text that is all spaces or dots would be a search for nothing in particular.
    if (part.trim().replaceAll('.', '') === '') continue;
    // Upper case where it reads back the same (not `ß`, which upper-cases to `SS`).
    const upper = part.toUpperCase();
    texts.add(next() < 0.5 && upper.toLowerCase() === part.toLowerCase() ? upper : part);
  }
  return [...texts];
}
