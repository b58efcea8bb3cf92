import autocannon from 'autocannon';

/** One kind of request a scenario sends, again and again. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Headers each request takes in turn, over `headers` (one credential after another, so that
   * each request can be another user's); the probe and the warm-up send the first.
   */
  rotatingHeaders?: readonly Record<string, string>[];
}

/** The same for every scenario of a run, baseline included. */
export interface LoadSettings {
  connections: number;
  pipelining: number;
}

export interface LoadResult {
  seconds: number;
  /** Responses with a 2xx status. */
  ok: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
}

/** Drives `request` at the server for `seconds` with autocannon, in this process. */
export async function runLoad(baseUrl: string, request: RequestSpec, settings: LoadSettings, seconds: number): Promise<LoadResult> {
  const turns = request.rotatingHeaders ?? [];
  let turn = 0;
  const result = await autocannon({
    ...(turns.length === 0 ? {} : {
      requests: [{ setupRequest: (sent: autocannon.Request) => ({ ...sent, headers: { ...sent.headers, ...turns[turn++ % turns.length] } }) }],
    }),
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: settings.connections,
    pipelining: settings.pipelining,
    duration: seconds,
    // autocannon stops at its next sample, once a second by default: a load shorter than a second
    // samples as often as it lasts, or it would last the whole second.
    sampleInt: Math.min(1000, seconds * 1000),
  });
  return {
    seconds: result.duration,
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
