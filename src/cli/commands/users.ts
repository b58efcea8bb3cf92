import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { createUser, listUsers, updateUserFields, type User } from '../../directory/index.js';
import { isoTime } from '../../lib/time.js';
import { idArgument } from '../arguments.js';
import { CliError } from '../failure.js';
import { findUserByName } from '../find-user.js';
import { PASSWORD_ENV, readNewPassword } from '../password-input.js';
import { noConfirmationNeeded, siteCall } from '../site-caller.js';
import { withSiteDatabase } from '../site-database.js';
import { configOf } from '../settings-options.js';

const PAGE = 500;

/** `atrium user create|set-password|disable|enable|list`, each one call on the directory feature. */
export function addUserCommands(program: Command, io: CliIo): void {
  const user = program.command('user').description('create, change and list users');

  user.command('create')
    .description(`create a user; its password comes from --password-stdin, ${PASSWORD_ENV} or a prompt (none: the user signs in with keys only)`)
    .argument('<username>')
    .option('--workspace <id>', 'the Workspace the user belongs to', idArgument)
    .option('--site-admin', 'make the user a Site Administrator (Workspace 0 only)')
    .option('--workspace-admin', 'make the user an administrator of its Custom Workspace')
    .option('--name <name>', 'full name')
    .option('--email <email>', 'e-mail address')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .action(async (username: string, options: { workspace?: number; siteAdmin?: boolean; workspaceAdmin?: boolean; name?: string; email?: string; passwordStdin?: boolean }, command: Command) => {
      const password = await readNewPassword(options, io);
      const created = await withSiteDatabase(configOf(command, io.env), io.stderr, (database) =>
        createUser(siteCall(database.db), {
          username,
          ...(password === undefined ? {} : { password }),
          ...(options.workspace === undefined ? {} : { workspaceId: options.workspace }),
          ...(options.siteAdmin === true ? { siteAdmin: true } : {}),
          ...(options.workspaceAdmin === true ? { workspaceAdmin: true } : {}),
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.email === undefined ? {} : { email: options.email }),
        }));
      io.stdout.write(`created user ${created.username} (id ${created.id}, Workspace ${created.workspaceId})${password === undefined ? ', without a password' : ''}\n`);
    });

  user.command('set-password')
    .description(`set a user's password from --password-stdin, ${PASSWORD_ENV} or a prompt; ends its sessions`)
    .argument('<username>')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .action(async (username: string, options: { passwordStdin?: boolean }, command: Command) => {
      const password = await readNewPassword(options, io);
      if (password === undefined) throw new CliError(`no password given: use --password-stdin, set ${PASSWORD_ENV}, or run at a terminal`);
      await changeUser(command, io, username, { password });
      io.stdout.write(`password of ${username} changed\n`);
    });

  user.command('disable')
    .description('disable a user: it can no longer sign in or use its keys, and its sessions end')
    .argument('<username>')
    .action(async (username: string, _options: unknown, command: Command) => {
      await changeUser(command, io, username, { disabled: true });
      io.stdout.write(`user ${username} disabled\n`);
    });

  user.command('enable')
    .description('enable a disabled user again')
    .argument('<username>')
    .action(async (username: string, _options: unknown, command: Command) => {
      await changeUser(command, io, username, { disabled: false });
      io.stdout.write(`user ${username} enabled\n`);
    });

  user.command('list')
    .description('list every user, or those of one Workspace')
    .option('--workspace <id>', 'only the users of this Workspace', idArgument)
    .action(async (options: { workspace?: number }, command: Command) => {
      await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
        const call = siteCall(database.db);
        for (let afterId = 0; ;) {
          const users = await listUsers(call, options.workspace === undefined ? {} : { workspaceId: options.workspace }, { afterId, limit: PAGE });
          if (afterId === 0) io.stdout.write(`${['ID', 'USERNAME', 'WORKSPACE', 'ROLE', 'STATE', 'LAST LOGIN'].join('\t')}\n`);
          for (const user of users) io.stdout.write(`${userLine(user)}\n`);
          if (users.length < PAGE) break;
          afterId = (users[users.length - 1] as User).id;
        }
      });
    });
}

async function changeUser(command: Command, io: CliIo, username: string, changes: { password?: string; disabled?: boolean }): Promise<void> {
  await withSiteDatabase(configOf(command, io.env), io.stderr, async (database) => {
    const call = siteCall(database.db);
    const target = await findUserByName(call, username);
    await updateUserFields(call, target.id, changes, noConfirmationNeeded);
  });
}

function userLine(user: User): string {
  const role = user.siteAdmin ? 'site-admin' : user.workspaceAdmin ? 'workspace-admin' : 'user';
  return [user.id, user.username, user.workspaceId, role, user.disabled ? 'disabled' : 'active', isoTime(user.lastLoginAt) ?? 'never'].join('\t');
}
