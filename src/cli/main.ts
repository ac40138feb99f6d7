#!/usr/bin/env node
// Placeholder entry until the CLI lands: prints help and version so the bin is real from the first commit.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const arg = process.argv[2];
if (arg === '--version' || arg === '-V') {
  process.stdout.write(`${pkg.version}\n`);
} else {
  process.stdout.write(
    `mcp-supervisor ${pkg.version}\n\nUsage: mcp-supervisor <command>\n\nThe commands (run, serve, call, check, trust) are not built yet.\n`,
  );
}
