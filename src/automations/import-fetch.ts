import * as http from 'node:http';
import * as https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { systemTimer, type Timer } from '../lib/timer.js';
import { addressRefusal, normalisedAddress } from './address-policy.js';
import { guardedAgents, type AddressCheck, type GuardedAgents } from './guarded-agents.js';
import { ImportFailure, importFailureOf, urlForLog } from './import-failure.js';
import { importFileName } from './import-file-name.js';
import { ImportSizeLimit } from './import-size-limit.js';
import { ImportWatch } from './import-watch.js';

/** One URL of an `import_file` automation, as it is requested. */
export interface ImportRequest {
  url: string;
  method: 'get' | 'post';
  headers: Record<string, string>;
  content?: string;
}

export interface ImportOptions {
  /** The site setting `automation_import_private_addresses`: loopback, private and other internal addresses may be reached. */
  allowPrivateAddresses: boolean;
  /** Aborted when the run is canceled or its job lost: the import stops, body included. */
  signal: AbortSignal;
  /** A body longer than this fails; one announced longer fails before it is read. */
  maxBytes: number;
  /** The longest wait for the server: for its answer, and between two pieces of the body. */
  timeoutMs?: number;
  /** Where the timeout waits; tests pass a timer they fire by hand. */
  timer?: Timer;
  /**
   * Exact addresses reachable although the policy refuses them. Only tests set it: they have
   * nothing but loopback to stand for a public server, and need one allowed host to redirect from.
   */
  alsoAllowedAddresses?: readonly string[];
}

/** An answer ready to store: its body (which fails as a stream past `maxBytes`), its name and announced length. */
export interface OpenedImport {
  body: Readable;
  fileName: string;
  contentLength: number | null;
}

/** Redirects followed before the import fails, as browsers and curl bound them. */
export const MAX_IMPORT_REDIRECTS = 5;
export const DEFAULT_IMPORT_TIMEOUT_MS = 60_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers Atrium sets itself: the body's framing and the connection are its business, not the automation's.
const HEADERS_SET_HERE = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer']);
const MAX_HEADER_NAME_SHOWN = 64;

/**
 * Sends one import request and opens its answer: follows redirects (at most 5, each hop checked
 * like the first), refuses addresses the site does not allow, and answers once a 2xx answer's
 * headers are in. Every failure is an ImportFailure whose message fits a run's log.
 */
export async function openImport(request: ImportRequest, options: ImportOptions): Promise<OpenedImport> {
  let url = importUrl(request.url, 'the URL');
  let method = request.method;
  let content = request.content;
  let headers = requestHeaders(request.headers);
  const agents = guardedAgents(addressCheck(options));
  const watch = new ImportWatch(options.signal, options.timer ?? systemTimer, options.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS, () => `${urlForLog(url)}: the server did not answer in time`);
  try {
    for (let redirects = 0; ; redirects += 1) {
      if (watch.canceled) throw new ImportFailure('the import was canceled');
      const response = await send(url, method, headers, content, agents, watch);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.destroy();
        if (redirects === MAX_IMPORT_REDIRECTS) throw new ImportFailure(`${urlForLog(url)}: more than ${MAX_IMPORT_REDIRECTS} redirects`, true);
        const next = importUrl(location, `the redirect from ${urlForLog(url)}`, url);
        // As browsers do: a POST redirected by 301, 302 or 303 is followed with a GET, without the content.
        if (status !== 307 && status !== 308 && method === 'post') {
          method = 'get';
          content = undefined;
          headers = withoutContentHeaders(headers);
        }
        // The automation's headers may carry credentials meant for the host it names; another
        // host (a redirect to a storage service, say) gets none of them.
        if (next.origin !== url.origin) headers = {};
        url = next;
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new ImportFailure(`${urlForLog(url)}: the server answered ${status} ${http.STATUS_CODES[status] ?? ''}`.trimEnd(), status >= 400 && status < 500 && status !== 408 && status !== 429);
      }
      return openBody(response, url, options.maxBytes, agents, watch);
    }
  } catch (error) {
    watch.end();
    agents.destroy();
    throw importFailureOf(error, url);
  }
}

/** The policy of the site, widened by the exact addresses a test names. */
function addressCheck(options: ImportOptions): AddressCheck {
  if (options.allowPrivateAddresses) return () => null;
  const alsoAllowed = new Set((options.alsoAllowedAddresses ?? []).map(normalisedAddress).filter((address) => address !== null));
  return (address) => {
    const normalised = normalisedAddress(address);
    if (normalised !== null && alsoAllowed.has(normalised)) return null;
    const refusal = addressRefusal(address);
    return refusal === null ? null : `${refusal}, which automations may not reach while the site setting automation_import_private_addresses is off`;
  };
}

function importUrl(text: string, what: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new ImportFailure(`${what} is not a valid URL`, true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportFailure(`${what} is not an http or https URL (it is ${url.protocol.slice(0, 20)})`, true);
  }
  return url;
}

/** The automation's headers, checked as HTTP allows them; a bad one is named, its value never shown. */
function requestHeaders(given: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch {
      throw new ImportFailure(`the request header "${name.slice(0, MAX_HEADER_NAME_SHOWN)}" is not a valid HTTP header`, true);
    }
    if (!HEADERS_SET_HERE.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}

function withoutContentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('content-')));
}

/** One hop: the request sent, and the answer's headers once they are in. */
function send(url: URL, method: 'get' | 'post', headers: Record<string, string>, content: string | undefined, agents: GuardedAgents, watch: ImportWatch): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const body = method === 'post' ? Buffer.from(content ?? '', 'utf8') : undefined;
    const sent = (url.protocol === 'https:' ? https : http).request(url, {
      method: method.toUpperCase(),
      headers: body === undefined ? headers : { ...headers, 'content-length': String(body.length) },
      agent: url.protocol === 'https:' ? agents.https : agents.http,
    }, resolve);
    sent.on('error', reject);
    watch.watch(sent);
    sent.end(body);
  });
}

function openBody(response: http.IncomingMessage, url: URL, maxBytes: number, agents: GuardedAgents, watch: ImportWatch): OpenedImport {
  const announced = response.headers['content-length'];
  const contentLength = announced !== undefined && /^\d+$/.test(announced) ? Number(announced) : null;
  if (contentLength !== null && contentLength > maxBytes) {
    response.destroy();
    throw new ImportFailure(`${urlForLog(url)}: the file is ${contentLength} bytes, larger than the limit of ${maxBytes} bytes`, true);
  }
  const body = new ImportSizeLimit(maxBytes, () => watch.progress(), (error) => importFailureOf(error, url));
  watch.watch(body);
  pipeline(response, body, () => {
    watch.end();
    agents.destroy();
  });
  return { body, fileName: importFileName(response.headers['content-disposition'], url), contentLength };
}
