import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule of eslint/layers.js, run by ESLint as `npm run lint` runs it, on imports written
 * into files of the tree: the shape of src/ (docs/architecture.md) holds only while these fail.
 */
const eslint = new ESLint();

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layers of src/', () => {
  it.each([
    ['a feature imports a front door', 'src/grants/demo.ts', "import { API_ROOT } from '../http/api-paths.js';\nexport const x = API_ROOT;\n", /may import only/],
    ['a front door reaches past a feature\'s index', 'src/http/routes/demo.ts', "import { listGrants } from '../../grants/listing.js';\nexport const x = listGrants;\n", /entered only through its index/],
    ['a front door reads a repository', 'src/http/routes/files/demo.ts', "import { findEntry } from '../../../repositories/entries.js';\nexport const x = findEntry;\n", /may import only/],
    ['a feature reaches past another feature\'s index', 'src/directory/demo.ts', "import { hashPassword } from '../identity/passwords.js';\nexport const x = hashPassword;\n", /entered only through its index/],
    ['a lower feature imports a higher one', 'src/access/demo.ts', "import { listUsers } from '../directory/index.js';\nexport const x = listUsers;\n", /may import only/],
    ['authz imports a helper', 'src/authz/demo.ts', "import { isoTime } from '../lib/time.js';\nexport const x = isoTime;\n", /pure engine/],
    ['authz imports a package', 'src/authz/demo.ts', "import { randomUUID } from 'node:crypto';\nexport const x = randomUUID;\n", /pure engine/],
    ['the data layer imports a feature', 'src/repositories/demo.ts', "import { PathAccess } from '../access/index.js';\nexport const x = PathAccess;\n", /may import only/],
    ['a layer imports the app', 'src/files/demo.ts', "import { buildApp } from '../app.js';\nexport const x = buildApp;\n", /top-level modules/],
    ['the SCIM front door reaches past a feature\'s index', 'src/scim/users/demo.ts', "import { createUser } from '../../directory/users.js';\nexport const x = createUser;\n", /entered only through its index/],
    ['the SCIM front door reads a repository', 'src/scim/demo.ts', "import { findUserById } from '../repositories/users.js';\nexport const x = findUserById;\n", /may import only/],
    ['the WebDAV front door reads a repository', 'src/webdav/locks/demo.ts', "import { findDavLock } from '../../repositories/dav-locks.js';\nexport const x = findDavLock;\n", /may import only/],
    ['the background jobs import a feature above them', 'src/jobs/demo.ts', "import { pruneHistory } from '../history/index.js';\nexport const x = pruneHistory;\n", /may import only/],
    ['a front door reaches past the background jobs\' index', 'src/http/routes/demo.ts', "import { JobRunner } from '../../jobs/job-runner.js';\nexport const x = JobRunner;\n", /entered only through its index/],
    ['a feature imports the SCIM front door', 'src/directory/demo.ts', "import { SCIM_ROOT } from '../scim/register-scim.js';\nexport const x = SCIM_ROOT;\n", /may import only/],
  ])('refuses it when %s', async (_what, filePath, code, message) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it.each([
    ['a front door enters a feature by its index', 'src/http/routes/demo.ts', "import { listGrants } from '../../grants/index.js';\nexport const x = listGrants;\n"],
    ['the SCIM front door enters a feature by its index', 'src/scim/users/demo.ts', "import { createUser } from '../../directory/index.js';\nexport const x = createUser;\n"],
    ['a feature uses a lower one by its index', 'src/directory/demo.ts', "import { hashPassword } from '../identity/index.js';\nexport const x = hashPassword;\n"],
    ['a feature uses its own files', 'src/files/demo.ts', "import { MAX_PARTS } from './uploads.js';\nexport const x = MAX_PARTS;\n"],
    ['authz uses its own files', 'src/authz/demo.ts', "import { decide } from './decide.js';\nexport const x = decide;\n"],
  ])('allows it when %s', async (_what, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});

describe('where authority is decided', () => {
  async function siteAdminDecisions(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  }

  it.each([
    ['a feature asks whether the caller is a Site Administrator', 'src/directory/demo.ts', 'export const f = (a: any) => { if (!a.caller.siteAdmin) throw new Error(); };\n'],
    ['a front door asks it of the caller', 'src/webdav/demo.ts', 'export const f = (caller: any) => caller.siteAdmin;\n'],
    ['a feature asks it of the engine\'s subject', 'src/files/demo.ts', 'export const f = (access: any) => access.viewer.subject.siteAdmin;\n'],
    ['the top-level core asks it', 'src/core.ts', 'export const f = (caller: any) => caller.siteAdmin;\n'],
  ])('refuses it when %s', async (_what, filePath, code) => {
    const messages = await siteAdminDecisions(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/src\/access\//);
  });

  it.each([
    ['a door builds its own PasswordDoor', 'src/webdav/demo.ts'],
    ['access builds one', 'src/access/demo.ts'],
  ])('refuses a second memory of passwords when %s', async (_what, filePath) => {
    const messages = await siteAdminDecisions(filePath, 'declare const PasswordDoor: any;\nexport const door = new PasswordDoor(null);\n');
    expect(messages).toEqual([expect.stringMatching(/core builds the one PasswordDoor/)]);
  });

  it('lets the core build the one PasswordDoor', async () => {
    expect(await siteAdminDecisions('src/core.ts', 'declare const PasswordDoor: any;\nexport const door = new PasswordDoor(null);\n')).toEqual([]);
  });

  it.each([
    ['access decides it', 'src/access/demo.ts', 'export const f = (caller: any) => caller.siteAdmin;\n'],
    ['a door renders a user\'s own field', 'src/http/routes/demo.ts', 'export const f = (user: any) => ({ site_admin: user.siteAdmin });\n'],
  ])('allows it when %s', async (_what, filePath, code) => {
    expect(await siteAdminDecisions(filePath, code)).toEqual([]);
  });
});

