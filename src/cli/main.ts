#!/usr/bin/env node
import { runCli } from './run-cli.js';

// The process ends with the command's status even if something it used left a handle open.
runCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then((code) => process.exit(code));
