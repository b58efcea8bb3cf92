import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { batchedLines } from '../../src/http/log-lines.js';
import { temporaryFolders } from '../support/temp-dirs.js';

/** Removed after the file's last test. */
const temporaryFolder = temporaryFolders();

describe('log lines written in batches', () => {
  const opened: number[] = [];
  afterEach(() => {
    for (const fd of opened.splice(0)) fs.closeSync(fd);
  });
  const logFile = () => {
    const file = path.join(temporaryFolder('atrium-log-lines-'), 'log');
    const fd = fs.openSync(file, 'a');
    opened.push(fd);
    return { file, lines: batchedLines(fd) };
  };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  // The batching is decided by the event loop's turns and a real timer inside the log writer (a
  // fake clock would not advance the file's own writes): short real pauses, a few ms each.
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('writes the lines of a turn together once the turn ends, in order, when nothing was written lately', async () => {
    const { file, lines } = logFile();
    lines.write('{"n":1}\n');
    lines.write('{"n":2}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('');
    await nextTurn();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    await pause(15);
    lines.write('{"n":3}\n');
    await nextTurn();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('holds the lines of a busy moment for at most 10 ms, then writes them together', async () => {
    const { file, lines } = logFile();
    lines.write('{"n":1}\n');
    await nextTurn();
    const started = performance.now();
    // Lines over several turns right after a write: one write for all of them, 10 ms after it.
    for (let n = 2; n <= 4; n += 1) {
      lines.write(`{"n":${n}}\n`);
      await nextTurn();
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    while (fs.readFileSync(file, 'utf8') === '{"n":1}\n') await pause(1);
    expect(performance.now() - started).toBeLessThan(200);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n');
  });

  it('keeps every line whole and in order when a turn logs more than one write holds', async () => {
    const { file, lines } = logFile();
    const written = Array.from({ length: 300 }, (_, i) => `${JSON.stringify({ n: i, text: 'é'.repeat(i % 50) })}\n`);
    for (const line of written) lines.write(line);
    await nextTurn();
    expect(fs.readFileSync(file, 'utf8')).toBe(written.join(''));
  });

  it('writes what is queued when asked to flush, without waiting for the turn to end', () => {
    const { file, lines } = logFile();
    lines.write('{"last":true}\n');
    lines.flush();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"last":true}\n');
  });
});
