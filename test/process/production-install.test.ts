import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

const run = promisify(execFile);

/** The compiled add-ons of the production dependencies, where each package loads it from. */
const NATIVE_ADDONS = [
  'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
  'node_modules/argon2/build/Release/argon2.node',
];

const packageJson = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Every `.js` file under a folder. */
function scriptsUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join(folder, name));
}

/** The package a bare import specifier names (`@scope/name/x.js` is `@scope/name`); undefined for relative ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The production path the README documents: build once, then install the production dependencies
 * alone (`npm ci --omit=dev`) beside the built `dist/` and run `node dist/main.js` and the `atrium`
 * command, with no TypeScript, no test tools and no build step.
 */
describe('a production install: dist/ and the production dependencies only', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-production-'));
  const install = path.join(work, 'atrium');
  let installSeconds = 0;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    fs.mkdirSync(install);
    fs.cpSync('dist', path.join(install, 'dist'), { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(file, path.join(install, file));
    const started = Date.now();
    // Install scripts are skipped here only because they build the two native add-ons, better-sqlite3
    // and argon2, from source on this machine (it cannot download better-sqlite3's prebuilt binary,
    // and argon2's shipped one fails its own load check here), which takes about a minute on two
    // cores. The add-ons the project's own install built (same versions, same Node.js) are put where
    // the packages look for them. A real install runs the scripts and gets or builds them itself.
    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: install, timeout: 120_000 });
    installSeconds = (Date.now() - started) / 1000;
    for (const addon of NATIVE_ADDONS) {
      fs.mkdirSync(path.dirname(path.join(install, addon)), { recursive: true });
      fs.copyFileSync(addon, path.join(install, addon));
    }
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs in under a minute from the npm cache, without any development dependency', () => {
    expect(installSeconds).toBeLessThan(60);
    for (const dev of ['typescript', 'vitest', 'files.com', 'eslint', 'vite']) {
      expect(fs.existsSync(path.join(install, 'node_modules', dev)), dev).toBe(false);
    }
  });

  it('imports, from the built code, only Node.js built-ins and production dependencies', () => {
    const allowed = new Set([...Object.keys(packageJson.dependencies), ...builtinModules]);
    const imported = new Set<string>();
    for (const file of scriptsUnder('dist').filter((f) => !f.startsWith(path.join('dist', '.bench')) && !f.startsWith(path.join('dist', 'web')))) {
      const source = fs.readFileSync(file, 'utf8');
      // How a bundle loads what it leaves outside: its imports at the start of a line, dynamic
      // imports, and the bundler's require for the CommonJS code inside it. Not the words
      // "import" and "require" in the bundled packages' comments and generated-code strings.
      for (const match of source.matchAll(/(?:^import\s[^;]*?\bfrom\s*|^import\s*|\bimport\(\s*|\b__require\(\s*)["']([^'"]+)["']/gm)) {
        const name = packageOf(match[1] as string);
        if (name !== undefined) imported.add(name);
      }
    }
    // pg asks for pg-native only when its `native` property is read, which Atrium never does.
    const optionalPeers = new Set(['pg-native']);
    expect([...imported].filter((name) => !allowed.has(name) && !optionalPeers.has(name))).toEqual([]);
    // The bundle holds the pure-JavaScript dependencies; the native add-ons come from node_modules.
    expect([...imported]).toEqual(expect.arrayContaining(['better-sqlite3', 'argon2', 'ssh2']));
  });

  it('starts with node dist/main.js, answers /health, and runs the atrium command', async () => {
    const dataDir = path.join(work, 'data');
    server = await startServer({ ATRIUM_DATA_DIR: dataDir }, undefined, path.join(install, 'dist', 'main.js'));
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'reachable', dialect: 'sqlite' });
    const users = await run('npx', ['--no-install', 'atrium', 'user', 'list'], { cwd: install, env: { PATH: process.env.PATH ?? '', HOME: work, ATRIUM_DATA_DIR: dataDir } });
    expect(users.stdout).toMatch(/^ID\tUSERNAME\tWORKSPACE\tROLE\tSTATE\tLAST LOGIN\n1\tadmin\t0\tsite-admin\tactive\t/);
  });
});
