import { ConfigError } from '../config/config-error.js';
import { AtriumError } from '../errors/atrium-error.js';

/** A refusal the CLI itself makes (bad input that commander cannot see, a non-empty data dir). */
export class CliError extends Error {
  override name = 'CliError';
}

/**
 * One or a few lines for a failure, never a stack trace: a feature's refusal with its type and
 * field messages, a bad setting naming it, or the cause of a database problem.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ConfigError) return `configuration error: ${error.message}`;
  if (error instanceof AtriumError) {
    const fields = Object.entries(error.extra.modelErrors ?? {}).map(([field, messages]) => `\n  ${field}: ${messages.join('; ')}`);
    return `${error.type}: ${error.message}${fields.join('')}`;
  }
  const message = (error as Error).message ?? String(error);
  // A database nobody migrated yet: say what to do rather than which table is missing.
  if (/no such table|relation "[^"]+" does not exist/.test(message)) {
    return `${message}\n  the database has no Atrium schema yet: run \`atrium migrate\` (or start the server) first`;
  }
  return message;
}
