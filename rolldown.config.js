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

/**
 * The bundles' code in ASCII alone. V8 keeps each module's source text for as long as the process
 * runs (functions are compiled when first called, from that text), and a text holding a single
 * character beyond ASCII is kept at two bytes a character: with a few dashes and signs in
 * comments and strings, the server's three bundles took 10.7 MB of the heap instead of 5.4.
 * `charset: 'ascii'` escapes strings and names, `comments` drops the documentation comments
 * (the sources and their map keep them); what remains is a licence comment or two, escaped here
 * in place (`\u00e4` for `ä`), each on a line of its own, so the source map still holds.
 */
const BEYOND_ASCII = /[\u0080-\uffff]/;
const asciiLicenceComments = {
  name: 'ascii-licence-comments',
  generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type !== 'chunk' || !BEYOND_ASCII.test(file.code)) continue;
      file.code = file.code.replace(/\/\*![\s\S]*?\*\//g, (comment) => comment.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
      if (BEYOND_ASCII.test(file.code)) this.warn(`${file.fileName} holds characters beyond ASCII: V8 will keep its source at two bytes a character`);
    }
  },
};

export default defineConfig({
  input: { main: 'src/main.ts', 'cli/main': 'src/cli/main.ts' },
  platform: 'node',
  external: isInstalled,
  plugins: [executableEntries, asciiLicenceComments],
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    charset: 'ascii',
    comments: { legal: true, annotation: true, jsdoc: false },
    banner: COMMONJS_GLOBALS,
    // The console (dist/web) is built after this, into a folder of its own.
    cleanDir: true,
  },
  logLevel: 'warn',
});
