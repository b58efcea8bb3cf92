import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/** What a scrape answers: a registry's text, or every worker's together. */
export interface ScrapeSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

const SCRAPE_REQUEST = 'atrium:scrape-request';
const SCRAPE_ANSWER = 'atrium:scrape-answer';
const SCRAPE_TIMEOUT_MS = 10_000;

interface ScrapeAnswer {
  type: typeof SCRAPE_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In a worker (ATRIUM_WORKERS above 1): the primary may read this worker's registry, and a scrape
 * that lands here on the public port is answered with every worker's metrics, which only the
 * primary can gather. Counts are then the server's, whichever worker the scrape reached.
 */
export function workerScrape(registry: Registry): ScrapeSource {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's answer to the primary's requests in this worker.
  new AggregatorRegistry();
  const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let next = 0;
  process.on('message', (message: unknown) => {
    const answer = message as Partial<ScrapeAnswer> | null;
    if (answer?.type !== SCRAPE_ANSWER || typeof answer.id !== 'number') return;
    const request = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (typeof answer.text === 'string') request?.resolve(answer.text);
    else request?.reject(new Error(answer.error ?? 'no metrics'));
  });
  return {
    contentType: registry.contentType,
    metrics: () => new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer the scrape'));
      }, SCRAPE_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (text) => { clearTimeout(timer); resolve(text); },
        reject: (error) => { clearTimeout(timer); reject(error); },
      });
      process.send?.({ type: SCRAPE_REQUEST, id });
    }),
  };
}

/**
 * In the primary: every worker's metrics, summed (requests, CPU, memory) or as each gauge says
 * (a count read from the database is the same on every worker and is given once). It also answers
 * the scrapes that workers pass on from the public port.
 */
export function primaryScrape(): ScrapeSource {
  const aggregator = new AggregatorRegistry();
  const source: ScrapeSource = { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
  cluster.on('message', (worker, message: unknown) => {
    const request = message as { type?: unknown; id?: unknown } | null;
    if (request?.type !== SCRAPE_REQUEST || typeof request.id !== 'number') return;
    const id = request.id;
    source.metrics().then(
      (text) => worker.send({ type: SCRAPE_ANSWER, id, text } satisfies ScrapeAnswer),
      (error: Error) => worker.send({ type: SCRAPE_ANSWER, id, error: error.message } satisfies ScrapeAnswer),
    );
  });
  return source;
}
