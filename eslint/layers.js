// The shape of src/, checked by ESLint (docs/architecture.md draws it). Each folder of src/ is a
// layer; a layer may import only the layers it lists, and a feature only through its index.ts.
// Written with ESLint's own no-restricted-imports: the folders are fixed and every import is a
// relative path, so a pattern per folder depth says exactly where an import lands.

/** Features: each is entered only through its index.ts. */
export const FEATURES = ['access', 'history', 'identity', 'directory', 'grants', 'files', 'access-review', 'partners', 'jobs', 'automations', 'bundles', 'connect', 'sso'];

/** Front doors: they translate a protocol and call features; nothing below may import them. */
export const FRONT_DOORS = ['http', 'cli', 'scim', 'webdav', 'sftp'];

/** What each layer may import besides itself. app.ts, main.ts and core.ts (src/*.ts) may import anything. */
export const MAY_IMPORT = {
  authz: [],
  errors: [],
  config: [],
  db: [],
  storage: [],
  lib: ['errors'],
  repositories: ['authz', 'db', 'lib', 'errors'],
  access: ['authz', 'db', 'lib', 'errors', 'repositories'],
  // History is recorded by every feature that changes something, so it sits just above access.
  history: ['access', 'authz', 'db', 'lib', 'errors', 'repositories'],
  identity: ['access', 'history', 'authz', 'config', 'db', 'lib', 'errors', 'repositories'],
  directory: ['access', 'history', 'identity', 'authz', 'db', 'lib', 'errors', 'repositories'],
  grants: ['access', 'history', 'authz', 'db', 'lib', 'errors', 'repositories'],
  // Access review runs the changes of grants and directory under review, so it sits above both.
  'access-review': ['access', 'history', 'grants', 'directory', 'identity', 'authz', 'db', 'lib', 'errors', 'repositories'],
  // Partners keep their fields by the directory's rules (notes, addresses) and name its users and
  // groups; their grants go with them and bound where their root folder may move.
  partners: ['access', 'history', 'directory', 'grants', 'authz', 'db', 'lib', 'errors', 'repositories'],
  // Files hand the trash's retention purge to the background jobs.
  files: ['access', 'history', 'jobs', 'authz', 'config', 'db', 'lib', 'errors', 'repositories', 'storage'],
  // Background jobs: the one durable queue and its runner, below every feature that will hand it
  // work (automations, link expiry, trash purge, retention), so any of them may name 'jobs' here.
  jobs: ['db', 'lib', 'errors', 'config', 'repositories'],
  // Automations: rules that copy, move, delete and make folders on a schedule or after an event;
  // they act on files and hand their runs to jobs.
  automations: ['access', 'history', 'jobs', 'files', 'grants', 'authz', 'db', 'lib', 'errors', 'repositories', 'config'],
  // Share links: links to a Workspace's files, made on their creator's authority under the site's
  // settings (identity keeps them, and hashes the links' passwords as it hashes users'); their
  // path templates name time zones as automations read them; their visitors act through a file
  // session opened on the link's reach.
  bundles: ['access', 'history', 'identity', 'automations', 'files', 'authz', 'db', 'lib', 'errors', 'repositories'],
  // Single sign-on: OpenID Connect providers sign users in; it makes users and sets their groups
  // as the directory does, and starts sessions as identity does.
  sso: ['access', 'history', 'identity', 'directory', 'authz', 'db', 'lib', 'errors', 'repositories'],
  // Connect: what another tool needs to reach this server (the WebDAV URL, the SFTP listener); facts, no rules.
  connect: [],
  http: [...FEATURES, 'authz', 'config', 'db', 'lib', 'errors'],
  cli: [...FEATURES, 'authz', 'config', 'db', 'lib', 'errors'],
  scim: [...FEATURES, 'authz', 'config', 'db', 'lib', 'errors'],
  webdav: [...FEATURES, 'authz', 'config', 'db', 'lib', 'errors'],
  sftp: [...FEATURES, 'authz', 'config', 'db', 'lib', 'errors'],
  // Several server processes on one machine (ATRIUM_WORKERS): node:cluster, and nothing of Atrium's.
  workers: [],
};

const DEEPEST = 5;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The no-restricted-imports patterns for a file of `layer`, `depth` folders below src/. */
function patternsFor(layer, depth) {
  const up = `^(\\.\\./){${depth}}`;
  const allowed = MAY_IMPORT[layer];
  const others = Object.keys(MAY_IMPORT).filter((name) => name !== layer && !allowed.includes(name));
  const patterns = [
    { regex: `^(\\.\\./){${depth + 1},}`, message: 'Imports stay inside src/.' },
    { regex: `${up}[^/]+$`, message: `${layer}/ may not import the top-level modules (app, main, core): they import it.` },
  ];
  if (others.length > 0) {
    patterns.push({
      regex: `${up}(${others.map(escape).join('|')})/`,
      message: `${layer}/ may import only ${allowed.length === 0 ? 'itself' : allowed.join(', ')} (see docs/architecture.md).`,
    });
  }
  const entered = allowed.filter((name) => FEATURES.includes(name));
  if (entered.length > 0) {
    patterns.push({
      regex: `${up}(${entered.map(escape).join('|')})/(?!index\\.js$)`,
      message: 'A feature is entered only through its index.ts.',
    });
  }
  return patterns;
}

/** One ESLint config object per layer and folder depth. */
export function layerRules() {
  const configs = [];
  for (const layer of Object.keys(MAY_IMPORT)) {
    for (let depth = 1; depth <= DEEPEST; depth += 1) {
      const folders = Array.from({ length: depth - 1 }, () => '*');
      const patterns = layer === 'authz'
        ? [{ regex: '^(?!\\./)', message: 'authz/ is the pure engine: it imports nothing outside itself.' }]
        : patternsFor(layer, depth);
      configs.push({
        files: [['src', layer, ...folders, '*.ts'].join('/')],
        rules: { 'no-restricted-imports': ['error', { patterns }] },
      });
    }
  }
  return configs;
}
