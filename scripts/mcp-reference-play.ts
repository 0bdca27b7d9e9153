// The scripted MCP client (scripts/mcp-reference-client.ts: observe / act / check only)
// plays the reference solutions of the sim suite's settings and clock tasks through
// `senseact mcp`, and every act verdict is compared with the loop's verdict for the same
// step on the same simulator seed (runTask with the oracle policy, as `senseact bench
// --policy oracle` runs it). Oracle results: the reference solutions play, no model.
// Run: npx tsx scripts/mcp-reference-play.ts [--apps settings,clock] [--tasks id,id] [--faults standard] [--list]
import * as path from 'node:path';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { playTask, type TaskPlay } from './mcp-reference-client.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const apps = (option('--apps') ?? 'settings,clock').split(',');
const only = option('--tasks')?.split(',');
const faults = option('--faults');
const suite = await loadSuite('sim', { tasksRoot: path.join(repoRoot, 'tasks') });
const tasks = suite.tasks.filter((task) => (only ? only.includes(task.id) : apps.some((app) => task.id.startsWith(`${app}-`))) && task.solution !== undefined);

const plays: TaskPlay[] = [];
for (const task of tasks) {
  const play = await playTask(task, faults === undefined ? {} : { faults });
  plays.push(play);
  if (argv.includes('--list') || !play.success || play.mismatches.length > 0) {
    console.log(`${play.success ? 'ok  ' : 'FAIL'} ${play.task}: ${play.client.verdicts.length} acts, ${play.equal}/${play.compared} verdicts equal${play.client.confirmations > 0 ? `, ${play.client.confirmations} confirmed` : ''}${play.success ? '' : ` — ${play.reason}`}`);
    for (const mismatch of play.mismatches) console.log(`     ${mismatch}`);
  }
}
const succeeded = plays.filter((play) => play.success).length;
const acts = plays.reduce((total, play) => total + play.client.verdicts.length, 0);
const equal = plays.reduce((total, play) => total + play.equal, 0);
const compared = plays.reduce((total, play) => total + play.compared, 0);
const calls = plays.reduce<Record<string, number>>((total, play) => {
  for (const [name, count] of Object.entries(play.client.calls)) total[name] = (total[name] ?? 0) + count;
  return total;
}, {});
console.log(`oracle results (reference solutions through senseact mcp; tools used: ${Object.entries(calls).map(([name, count]) => `${name} ${count}`).join(', ')})`);
console.log(`tasks: ${plays.length} (${apps.join(', ')}${faults ? `, faults ${faults}` : ''}); succeeded: ${succeeded}/${plays.length} (${((100 * succeeded) / Math.max(plays.length, 1)).toFixed(1)}%)`);
console.log(`act verdicts equal to the loop's for the same step and seed: ${equal}/${compared} (${acts} acts ran; confirmations ${plays.reduce((total, play) => total + play.client.confirmations, 0)})`);
