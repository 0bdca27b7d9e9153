// Writes the AndroidWorld suites from tasks/androidworld/task_metadata.json: the device
// tasks (tasks/androidworld/<app>.yaml) and the simulator twins
// (tasks/sim-androidworld/androidworld-twins.yaml), with parameters drawn by the seeded
// generator in src/tasks/androidworld. With --check, writes nothing and exits 1 when a
// file differs from what the generator gives (so an edit by hand is caught).
//   npx tsx scripts/generate-androidworld-tasks.ts [--seed 30] [--check]
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { defaultSettingsState } from '../src/sim/apps/settings-app.js';
import { defaultAndroidWorldSeed, generateAndroidWorldTasks } from '../src/tasks/androidworld/generate-androidworld-tasks.js';
import { renderAndroidWorldFiles } from '../src/tasks/androidworld/render-androidworld-files.js';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : defaultAndroidWorldSeed;
if (!Number.isInteger(seed) || seed < 0) {
  console.error(`generate-androidworld-tasks: --seed takes a whole number ≥ 0, got "${args[seedAt + 1] ?? ''}"`);
  process.exit(2);
}
const metadata: unknown = JSON.parse(readFileSync(path.join(root, 'tasks', 'androidworld', 'task_metadata.json'), 'utf8'));
const suites = generateAndroidWorldTasks(metadata, { seed, simDefaults: { settings: defaultSettingsState() } });
const files = renderAndroidWorldFiles(suites, seed);
let differ = 0;
for (const [relative, text] of files) {
  const file = path.join(root, relative);
  if (args.includes('--check')) {
    const same = existsSync(file) && readFileSync(file, 'utf8') === text;
    if (!same) {
      differ++;
      console.error(`${relative}: differs from the generator's output`);
    }
    continue;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
const covered = suites.tasks.filter((task) => task.uncovered === undefined).length;
console.log(`${suites.tasks.length} tasks (${covered} with a check, ${suites.tasks.length - covered} uncovered), ${suites.twins.length} simulator twins, seed ${seed}${args.includes('--check') ? `; ${differ} file(s) differ` : `; wrote ${files.size} files`}`);
process.exit(differ > 0 ? 1 : 0);
