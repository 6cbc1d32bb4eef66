#!/usr/bin/env node
// `toolhost-tools sync …`: publishes code-first tools with only @toolhost/runner installed.
import { runToolsCommand } from "../dist/tools-sync-command.js";

process.exitCode = await runToolsCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
