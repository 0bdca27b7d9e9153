// Runs exported specs with runWdioSpecsStandalone in a process of its own (TypeScript
// specs need the tsx loader, which a vitest worker does not have):
//   node --import tsx tests/helpers/run-wdio-standalone-main.ts <appium url> '<jobs as JSON>'
// Prints the verdicts as one JSON line last; Mocha's dot reporter writes before it.
import { runWdioSpecsStandalone } from './run-wdio-standalone.js';
import type { WdioSpecJob } from './run-wdio-spec.js';

const [url, jobs] = process.argv.slice(2);
if (url === undefined || jobs === undefined) throw new Error('usage: run-wdio-standalone-main.ts <appium url> <jobs JSON>');
const result = await runWdioSpecsStandalone(JSON.parse(jobs) as WdioSpecJob[], url);
process.stdout.write(`\n${JSON.stringify(result)}\n`);
