#!/usr/bin/env node
// The published entry point: runs the compiled CLI (built by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('senseact: the compiled CLI is missing (dist/cli/main.js). Run `npm run build` in the project folder.\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
