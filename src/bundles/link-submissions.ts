import { lookUpTimeZone, wallClockAt } from '../automations/index.js';
import type { Bundle } from '../repositories/bundles.js';

// The folder a visit's uploads go into (docs/sharing.md#visiting-a-link), unless the link puts
// them straight into its folder (`dont_separate_submissions_by_folder`): named once per visit from
// the link's `path_template`, or `<name or "upload"> <YYYY-MM-DD HH-MM-SS>`, its times in the
// link's `path_template_time_zone` (UTC when none).

export interface SubmitterFacts {
  name: string | null;
  email: string | null;
  company: string | null;
  ip: string;
}

const MAX_NAME = 200;

/** The submission folder's name for a visitor at `now`. */
export function submissionFolderName(bundle: Bundle, facts: SubmitterFacts, now: number): string {
  const zone = lookUpTimeZone(bundle.settings.path_template_time_zone);
  const clock = wallClockAt(new Date(now), zone.ok ? zone.iana : 'Etc/UTC');
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${clock.year}-${two(clock.month)}-${two(clock.day)}`;
  const time = `${two(clock.hour)}-${two(clock.minute)}-${two(clock.second)}`;
  const template = bundle.settings.path_template;
  const fallback = `${safeName(facts.name ?? '') || 'upload'} ${date} ${time}`;
  if (template === null || template.trim() === '') return fallback;
  const values: Record<string, string> = { name: facts.name ?? '', email: facts.email ?? '', company: facts.company ?? '', ip: facts.ip, date, time };
  // An unknown token stands for nothing, as an empty field does.
  const filled = template.replace(/\{\{\s*([a-z_]+)\s*\}\}/gi, (_whole, token: string) => values[token.toLowerCase()] ?? '');
  return safeName(filled) || fallback;
}

/**
 * One path segment from text a visitor partly wrote: no separators, no control characters, no
 * leading or trailing dots or spaces (never `.` or `..`), and not too long.
 */
function safeName(text: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[/\\\u0000-\u001f\u007f]/g, '-').slice(0, MAX_NAME);
  return cleaned.replace(/^[\s.]+|[\s.]+$/g, '');
}
