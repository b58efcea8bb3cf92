import http from 'node:http';
import { sendOnce, type AnyRequest } from '../webdav/http-loop.js';

/** Latencies of one client sending a request again and again, each once the last was answered. */
export interface LatencyLoop {
  requests: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  seconds: number;
}

/**
 * Sends `request` over one keep-alive connection, one after another, until `done` settles (or,
 * given a number, for that many seconds): what an API client feels while other work goes on.
 */
export async function latencyLoop(baseUrl: string, request: AnyRequest, done: Promise<unknown> | number): Promise<LatencyLoop> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let finished = false;
  const until = typeof done === 'number' ? new Promise((resolve) => setTimeout(resolve, done * 1000)) : done;
  void until.then(() => { finished = true; }, () => { finished = true; });
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  try {
    while (!finished) {
      const sent = performance.now();
      const answer = await sendOnce(baseUrl, request, agent).catch(() => ({ status: 0 }));
      if (answer.status >= 200 && answer.status < 300) latencies.push(performance.now() - sent);
      else failed += 1;
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, failed, p50Ms: at(0.5), p99Ms: at(0.99), seconds: (performance.now() - started) / 1000 };
}
