import http from 'node:http';
import { expect } from 'vitest';
import type { ServerProcess } from './server-process.js';

/** One answer, with the request id that names it in the access log. */
export interface Answer {
  status: number;
  body: any;
  requestId: string;
}

/**
 * One request on a connection of its own (`Connection: close`): with several workers the primary
 * hands every new connection to the next worker, so consecutive calls reach different workers.
 */
export function callFresh(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({
        status: response.statusCode ?? 0,
        body: text === '' || !(response.headers['content-type'] ?? '').includes('json') ? text : JSON.parse(text),
        requestId: String(response.headers['x-request-id']),
      }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The pid of the process that logged each request's access-log line (every line carries its process's pid). */
export async function pidsOf(server: ServerProcess, requestIds: readonly string[]): Promise<Set<number>> {
  const pids = new Map<string, number>();
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const line of server.stdout().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; reqId?: string; pid?: number };
      if (entry.msg === 'request' && entry.reqId !== undefined && entry.pid !== undefined && requestIds.includes(entry.reqId)) pids.set(entry.reqId, entry.pid);
    }
    if (pids.size === requestIds.length) return new Set(pids.values());
    if (Date.now() > deadline) throw new Error(`access log lines missing for ${requestIds.length - pids.size} of ${requestIds.length} requests`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Makes the same request on `rounds` fresh connections and answers them all, after checking
 * (from the access log) that more than one worker answered: a check then holds on every worker.
 */
export async function onEveryWorker(server: ServerProcess, request: () => Promise<Answer>, rounds = 6): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < rounds; i += 1) answers.push(await request());
  expect((await pidsOf(server, answers.map((answer) => answer.requestId))).size, 'workers that answered').toBeGreaterThan(1);
  return answers;
}

export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
