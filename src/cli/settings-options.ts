import { Option, type Command } from 'commander';
import { loadConfig } from '../config/load-config.js';
import { SETTINGS, type Config } from '../config/settings.js';

/**
 * Every server setting is also an option of the CLI (`atrium --data-dir /srv/atrium user list`,
 * or after the command), so the CLI finds the same database as the server from the same variables
 * and flags. Commander only collects them; loadConfig reads and validates them exactly as the
 * server does.
 */
export function addSettingOptions(program: Command): void {
  for (const setting of SETTINGS) {
    program.addOption(new Option(`--${setting.flag} <value>`, `${setting.meaning} (env ${setting.env})`).hideHelp());
  }
}

/** The configuration a command runs with: the environment `env`, overridden by the setting flags given. */
export function configOf(command: Command, env: NodeJS.ProcessEnv): Config {
  const given = command.optsWithGlobals<Record<string, unknown>>();
  const argv: string[] = [];
  for (const setting of SETTINGS) {
    const value = given[new Option(`--${setting.flag} <value>`).attributeName()];
    if (typeof value === 'string') argv.push(`--${setting.flag}=${value}`);
  }
  return loadConfig(env, argv);
}
