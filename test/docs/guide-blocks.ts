/**
 * Reads the fenced code blocks of a Markdown guide, so that a test can run its commands and compare
 * what they print with what the guide says they print.
 *
 * The marker convention, written in the info string after the language (Markdown renderers show
 * only the language, so readers never see the markers):
 *
 * - ```` ```sh ````: run with bash. Every `sh` block of a guide runs in one shell session, in order,
 *   so variables set in one block are there in the next.
 * - ```` ```js ````: part of one Node.js ES module made of every `js` block, in order.
 * - ```` ```sh no-test ```` (or `js no-test`): shown, not run, because the test does the same its own
 *   way (it installs nothing, starts the server itself and passes the printed secrets in).
 * - ```` ```text output ````: what the nearest `sh` or `js` block before it prints. Text in angle
 *   brackets (`<generated secret>`) stands for any text on that line. A run block with no output
 *   block after it must print nothing.
 * - ```` ```text output-of-<name> ````: output the test checks against something other than a block
 *   (`output-of-first-start`: the server's standard error on its first start).
 *
 * Any other `sh`, `bash`, `shell`, `js` or `javascript` block is an error, so a command cannot be
 * added to a guide without being either run or deliberately marked.
 */
export interface RunBlock {
  language: 'sh' | 'js';
  code: string;
  /** The expected output, when the guide shows one. */
  output: string | undefined;
  /** The line of the guide (1-based) its opening fence is on, for failure messages. */
  line: number;
}

export interface Guide {
  runs: RunBlock[];
  /** `output-of-<name>` blocks, by name. */
  namedOutputs: Map<string, string>;
}

const FENCE = /^```(\S*)(?:[ \t]+(.*))?$/;

export function readGuide(markdown: string): Guide {
  const lines = markdown.split('\n');
  const runs: RunBlock[] = [];
  const namedOutputs = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const opening = FENCE.exec(lines[i] as string);
    if (opening === null) continue;
    const language = opening[1] ?? '';
    const marker = (opening[2] ?? '').trim();
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i] as string);
    if (i >= lines.length) throw new Error(`line ${start}: code block never closed`);
    const code = body.join('\n');
    if (['sh', 'bash', 'shell', 'js', 'javascript'].includes(language)) {
      if (marker === 'no-test') continue;
      if ((language === 'sh' || language === 'js') && marker === '') {
        runs.push({ language, code, output: undefined, line: start });
        continue;
      }
      throw new Error(`line ${start}: a \`${language}${marker === '' ? '' : ` ${marker}`}\` block is neither run (\`sh\`, \`js\`) nor marked \`no-test\``);
    }
    if (marker === 'output') {
      const last = runs[runs.length - 1];
      if (last === undefined || last.output !== undefined) throw new Error(`line ${start}: an output block without a command block before it`);
      last.output = code;
    } else if (marker.startsWith('output-of-')) {
      namedOutputs.set(marker.slice('output-of-'.length), code);
    }
  }
  return { runs, namedOutputs };
}

/** Whether `actual` is what `expected` shows, `<...>` standing for any text within a line. */
export function matchesShownOutput(expected: string, actual: string): boolean {
  const pattern = expected
    .split(/(<[^<>\n]+>)/)
    .map((part) => (/^<[^<>\n]+>$/.test(part) ? '[^\\n]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(actual);
}
