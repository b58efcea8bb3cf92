import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesShownOutput, readGuide, type RunBlock } from '../docs/guide-blocks.js';
import { startServer, type ServerProcess } from '../support/server-process.js';

/**
 * docs/getting-started.md, run as a reader would run it: its `sh` blocks in one bash session and
 * its `js` blocks as one Node module, in order, against a server started on an empty data directory
 * with the default settings, each block's output compared with the output the guide shows.
 * The marker convention is described in test/docs/guide-blocks.ts.
 */
const GUIDE = path.resolve('docs/getting-started.md');
const SHOWN_ADDRESS = 'http://127.0.0.1:8080';
const BLOCK_END = '@@guide-block-end@@';

interface Finished { code: number | null; stdout: string; stderr: string }

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The output of each block, cut at the markers printed after each one. */
function outputsOf(stdout: string): string[] {
  return stdout.split(`\n${BLOCK_END}\n`).map((chunk) => chunk.replace(/^\n+|\n+$/g, ''));
}

/** Each block's output checked against the guide's; `address` is what the guide's shown address stands for in this run. */
function expectOutputs(blocks: RunBlock[], finished: Finished, address: string): void {
  const outputs = outputsOf(finished.stdout);
  blocks.forEach((block, index) => {
    const actual = outputs[index];
    const where = `the ${block.language} block at docs/getting-started.md line ${block.line}`;
    if (actual === undefined) throw new Error(`${where} did not finish (exit ${finished.code}):\n${finished.stderr}`);
    // An address the server prints (a link's url) is this run's, where the guide shows its own.
    const expected = (block.output ?? '').replaceAll(SHOWN_ADDRESS, address);
    if (!matchesShownOutput(expected, actual)) {
      throw new Error(`${where} printed\n${actual}\nwhere the guide shows\n${expected}\n(standard error: ${finished.stderr})`);
    }
  });
  expect(finished.code, finished.stderr).toBe(0);
}

describe('docs/getting-started.md, every command run against a fresh server', () => {
  const guide = readGuide(fs.readFileSync(GUIDE, 'utf8'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-guide-'));
  let server: ServerProcess;
  let secrets: { password: string; key: string };
  const forThisServer = (code: string) => code.replaceAll(SHOWN_ADDRESS, server.baseUrl);

  beforeAll(async () => {
    const tools = await run('bash', ['-c', 'command -v curl && command -v jq'], { cwd: work, env: { PATH: process.env.PATH ?? '' } });
    if (tools.code !== 0) throw new Error('the guide uses curl and jq: install them (apt-get install curl jq) to run it');
    // Only the data directory and where to listen: the guide is written for the default settings.
    server = await startServer({ ATRIUM_DATA_DIR: path.join(work, 'data') });
    for (const deadline = Date.now() + 10_000; !/API key: /.test(server.stderr()) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const password = /password: (\S+)/.exec(server.stderr())?.[1];
    const key = /API key: +(\S+)/.exec(server.stderr())?.[1];
    if (password === undefined || key === undefined) throw new Error(`no first-start banner on standard error:\n${server.stderr()}`);
    secrets = { password, key };
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('shows the first-start banner as the server prints it on standard error', () => {
    const shown = guide.namedOutputs.get('first-start');
    expect(shown).toBeDefined();
    const banner = server.stderr().replace(/^\n+|\n+$/g, '');
    expect(matchesShownOutput(shown as string, banner), banner).toBe(true);
  });

  it('prints what the guide shows for every curl command', async () => {
    const blocks = guide.runs.filter((b) => b.language === 'sh');
    expect(blocks.length).toBeGreaterThan(10);
    const script = ['set -euo pipefail', ...blocks.flatMap((b) => [forThisServer(b.code), `printf '\\n%s\\n' '${BLOCK_END}'`])].join('\n');
    const shellDir = fs.mkdtempSync(path.join(work, 'curl-'));
    const finished = await run('bash', ['-c', script], {
      cwd: shellDir,
      env: { PATH: process.env.PATH ?? '', HOME: shellDir, KEY: secrets.key, PASSWORD: secrets.password },
    });
    expectOutputs(blocks, finished, server.baseUrl);
  });

  it('prints what the guide shows for every Files.com SDK step', async () => {
    const blocks = guide.runs.filter((b) => b.language === 'js');
    expect(blocks.length).toBeGreaterThan(5);
    // The reader installs files.com beside the script; here the project's own copy stands in.
    const scriptDir = fs.mkdtempSync(path.join(work, 'sdk-'));
    fs.symlinkSync(path.resolve('node_modules'), path.join(scriptDir, 'node_modules'), 'dir');
    const module = blocks.flatMap((b) => [forThisServer(b.code), `process.stdout.write('\\n${BLOCK_END}\\n');`]).join('\n');
    fs.writeFileSync(path.join(scriptDir, 'first-day.mjs'), module);
    const finished = await run(process.execPath, ['first-day.mjs'], {
      cwd: scriptDir,
      env: { PATH: process.env.PATH ?? '', HOME: scriptDir, KEY: secrets.key },
    });
    expectOutputs(blocks, finished, server.baseUrl);
  });
});
