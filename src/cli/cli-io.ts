/** Where a run of the CLI writes: a process's stdout or stderr, or anything else that takes text. */
export interface CliOutput {
  write(text: string): unknown;
  /** A terminal: help is wrapped at its width. */
  isTTY?: boolean;
  columns?: number;
}

/**
 * Everything a run of the CLI reads and writes besides the files and databases it is pointed at:
 * the binary (main.ts) gives its own process's, and the tests their own, so both run the same code.
 */
export interface CliIo {
  /** The settings (ATRIUM_*, read as the server reads them) and ATRIUM_USER_PASSWORD. */
  env: NodeJS.ProcessEnv;
  /** Where `--password-stdin` reads, and the prompt when it is a terminal. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: CliOutput;
  stderr: CliOutput;
}
