import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { setConsoleHeaders } from './console-headers.js';

/**
 * Where `npm run build` puts the console: dist/web beside the bundled server, whose code is in
 * dist/main.js or one of dist/chunks/. When the server runs from its sources
 * (src/http/console, in the in-process tests), the last build's copy is used. Never the
 * console's sources in web/ (beside dist/ in a checkout): their index.html cannot be served.
 */
function consoleDirectory(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, 'web'), path.resolve(here, '../web'), path.resolve(here, '../../../dist/web')];
  // A build has assets/ beside its index.html; the sources' index.html has none.
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')) && fs.existsSync(path.join(dir, 'assets')));
}

/** Where the console's built assets are served. */
const ASSETS_PREFIX = '/assets/';

/** Paths that belong to the server, never to the console's client-side routes. */
function isServerPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/health') || url.startsWith('/metrics');
}

/**
 * The console's page, telling it the site's header brand (for `X-<Brand>-Workspace-Id` and
 * `X-<Brand>-Reauthentication`) in a meta element: data, not script, so the Content-Security-Policy
 * stays `script-src 'self'`. Brands are letters and digits only (config/load-config.ts).
 */
function consolePage(root: string, brand: string): string {
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  return html.replace('<head>', `<head>\n    <meta name="atrium-header-brand" content="${brand.replace(/[^A-Za-z0-9]/g, '')}" />`);
}

/**
 * Serves the web console at `/`: its built assets, and its page for any other GET that is not an
 * API path, so a reload on a console address (`/files/Reports`) opens the console there. Answers
 * false when the console has not been built.
 */
export async function registerConsole(app: FastifyInstance, headerBrand: string): Promise<boolean> {
  const root = consoleDirectory();
  if (root === undefined) return false;
  const page = consolePage(root, headerBrand);
  await app.register(async (console) => {
    console.addHook('onRequest', async (_request, reply) => setConsoleHeaders(reply));
    // One route per asset file: counted under one label, or every build would add a set of its own.
    console.addHook('onRoute', (route) => {
      if (route.url.startsWith(ASSETS_PREFIX)) route.config = { ...route.config, metricsRoute: `${ASSETS_PREFIX}*` };
    });
    // File names under assets/ carry a hash of their contents, so they never change.
    await console.register(fastifyStatic, {
      root: path.join(root, 'assets'),
      prefix: ASSETS_PREFIX,
      wildcard: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
    });
    console.get('/*', async (request, reply) => {
      if (isServerPath(request.url)) return reply.callNotFound();
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page);
    });
  });
  return true;
}
