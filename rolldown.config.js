import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'rolldown';

/**
 * The server and the `atrium` command, each bundled into one file (with the chunks they share in
 * dist/chunks/) rather than compiled file by file: a start loaded about 450 modules of Atrium and
 * several hundred of its dependencies, and reading and compiling them one by one cost half of a
 * start's CPU time (about 0.8 s down to 0.4 s; docs/decisions.md, "One bundle").
 *
 * Kept outside the bundle, loaded from node_modules as installed: native addons, and packages that
 * find files of their own beside their code at run time (ssh2's agent helper, the static-file
 * servers of the console and of the API's documentation).
 */
const INSTALLED = ['better-sqlite3', 'argon2', 'ssh2', 'cpu-features', 'pg-native', '@fastify/static', '@fastify/swagger-ui'];


const PRODUCTION = new Set(Object.keys(JSON.parse(fs.readFileSync('package.json', 'utf8')).dependencies));
const SOURCES = path.resolve('src') + path.sep;

/** `@scope/name/x.js` is `@scope/name`, `name/x.js` is `name`; undefined for a relative or absolute path. */
function packageOf(id) {
  if (id.startsWith('.') || path.isAbsolute(id) || id.startsWith('\0')) return undefined;
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Whether an import stays outside the bundle. Atrium's own code may import only Node.js's modules
 * and its production dependencies: a development package (a test tool, the SDK) would otherwise be
 * bundled into the server without anyone noticing, so the build fails instead.
 */
function isInstalled(id, importer) {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  const name = packageOf(id);
  if (name === undefined) return false;
  if (importer?.startsWith(SOURCES) && !PRODUCTION.has(name)) {
    throw new Error(`${path.relative('.', importer)} imports ${id}, which is not a production dependency`);
  }
  return INSTALLED.includes(name);
}

// Dependencies written as CommonJS use require, __filename and __dirname, which an ES module lacks.
const COMMONJS_GLOBALS = [
  "import { createRequire as __atriumCreateRequire } from 'node:module';",
  "import { fileURLToPath as __atriumFileURLToPath } from 'node:url';",
  "import { dirname as __atriumDirname } from 'node:path';",
  'const require = __atriumCreateRequire(import.meta.url);',
  'const __filename = __atriumFileURLToPath(import.meta.url);',
  'const __dirname = __atriumDirname(__filename);',
].join(' ');

/**
 * The `atrium` command (package.json's bin) is run as a program (`npx atrium`, a symlink on PATH),
 * so its file is executable, as npm makes an installed package's bin.
 */
const executableEntries = {
  name: 'executable-entries',
  writeBundle(options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type === 'chunk' && file.isEntry && file.code.startsWith('#!')) fs.chmodSync(path.join(options.dir, file.fileName), 0o755);
    }
  },
};

export default defineConfig({
  input: { main: 'src/main.ts', 'cli/main': 'src/cli/main.ts' },
  platform: 'node',
  external: isInstalled,
  plugins: [executableEntries],
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    banner: COMMONJS_GLOBALS,
    // The console (dist/web) is built after this, into a folder of its own.
    cleanDir: true,
  },
  logLevel: 'warn',
});
