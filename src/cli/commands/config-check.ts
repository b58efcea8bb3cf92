import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { SETTINGS, type Config } from '../../config/settings.js';
import { configOf } from '../settings-options.js';

/** Settings whose values are secrets (by name, so a setting added later is masked too): shown as set, never their value. */
const SECRET_SETTING = /password|secret|token|apiKey/i;

/**
 * `atrium config check`: reads and validates every setting exactly as the server does (a bad one
 * fails with the server's own line and exit status 1), then prints what the server would use.
 */
export function addConfigCommands(program: Command, io: CliIo): void {
  const config = program.command('config').description('the server settings');
  config.command('check')
    .description('validate every setting as the server would, and print what it would use (secrets masked)')
    .action((_options: unknown, command: Command) => {
      const loaded = configOf(command, io.env);
      const width = Math.max(...SETTINGS.map((setting) => setting.env.length));
      for (const setting of SETTINGS) {
        io.stdout.write(`${setting.env.padEnd(width)}  ${shown(setting.key, loaded[setting.key])}\n`);
      }
      io.stdout.write('configuration is valid\n');
    });
}

function shown(key: keyof Config, value: unknown): string {
  if (value === undefined) return '(not set)';
  if (SECRET_SETTING.test(key)) return '******** (set)';
  if (key === 'databaseUrl') return withoutPassword(String(value));
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/** A database URL may carry a password: the rest of it is what an operator needs to check. */
function withoutPassword(text: string): string {
  const url = new URL(text);
  if (url.password !== '') url.password = '********';
  return url.toString();
}
