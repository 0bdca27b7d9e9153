import * as path from 'node:path';
import { stringify } from 'yaml';
import { induceSkills } from '../../skills/induce-skills.js';
import { liftRun } from '../../skills/lift-run.js';
import { matchSkill } from '../../skills/match-skill.js';
import { readVerifiedRun } from '../../skills/read-verified-run.js';
import { allSteps, findRunFolders, loadSkills, saveSkill } from '../../skills/skill-library.js';
import { isBranchPoint } from '../../skills/skill-schema.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

const defaultDir = 'skills';

/**
 * `senseact skills induce | list | show | match`: learns skills from verified runs and
 * looks at them. `induce` folds runs into the skills already in `--dir` (a recovery a
 * planner found after a hand-over becomes a branch), and says what it lifted and why.
 */
export const skillsCommand: CommandRegistration = (program, io, setExitCode) => {
  const skills = program
    .command('skills')
    .description('Verified skills: induce them from successful, verified runs; list, show and match them (replay them with bench --skills).');

  skills
    .command('induce')
    .description('Induce skills from run folders (or bench output folders) whose task check passed; merges into the skills already in --dir.')
    .argument('<run-dir...>', 'run folders (traces/<task>/<mode>-r<k>) or bench output folders')
    .option('--dir <dir>', `skills folder to write and merge into, the one list, show and match read (default: ${defaultDir})`)
    .option('--out <dir>', 'the older name of --dir')
    .action((runDirs: string[], options: { dir?: string; out?: string }) => {
      if (options.dir !== undefined && options.out !== undefined && path.resolve(io.cwd, options.dir) !== path.resolve(io.cwd, options.out)) {
        io.stderr(`senseact skills induce: --dir ${options.dir} and --out ${options.out} name two folders; --out is the older name of --dir: give one\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const out = path.resolve(io.cwd, options.dir ?? options.out ?? defaultDir);
      const existing = loadSkills(out);
      const folders = findRunFolders(runDirs.map((dir) => path.resolve(io.cwd, dir)));
      const lifted = [];
      let unusable = 0;
      for (const folder of folders) {
        const run = readVerifiedRun(folder);
        if ('reason' in run) {
          unusable += 1;
          io.stdout(`${path.relative(io.cwd, folder) || folder}: skipped: ${run.reason}\n`);
          continue;
        }
        lifted.push(liftRun(run));
      }
      const report = induceSkills(lifted, existing);
      for (const line of report.lines) io.stdout(`${line}\n`);
      const changed = report.skills.filter((skill) => !existing.some((old) => JSON.stringify(old) === JSON.stringify(skill)));
      for (const skill of changed) saveSkill(out, skill);
      io.stdout(`${folders.length} run folders: ${lifted.length} used, ${unusable} skipped; ${report.skills.length} skills in ${out} (${changed.length} written)\n`);
      setExitCode(lifted.length > 0 || existing.length > 0 ? exitCodes.ok : exitCodes.failure);
    });

  skills
    .command('list')
    .description('List the skills of a folder: name, app, template, steps, branch points, sources.')
    .option('--dir <dir>', 'skills folder', defaultDir)
    .action((options: { dir: string }) => {
      const loaded = loadSkills(path.resolve(io.cwd, options.dir));
      for (const skill of loaded) {
        const branches = skill.steps.filter(isBranchPoint).length;
        io.stdout(`${skill.name}  [${skill.app}]  "${skill.template}"  ${allSteps(skill).length} steps${branches > 0 ? `, ${branches} branch points` : ''}, ${skill.sources.length} runs\n`);
      }
      io.stdout(`${loaded.length} skills\n`);
      setExitCode(exitCodes.ok);
    });

  skills
    .command('show')
    .description('Print one skill as YAML.')
    .argument('<name>', 'skill name')
    .option('--dir <dir>', 'skills folder', defaultDir)
    .action((name: string, options: { dir: string }) => {
      const loaded = loadSkills(path.resolve(io.cwd, options.dir));
      const skill = loaded.find((candidate) => candidate.name === name);
      if (!skill) {
        io.stderr(`no skill "${name}" in ${options.dir}; senseact skills list --dir ${options.dir} names them\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      io.stdout(stringify(skill, { lineWidth: 0 }));
      setExitCode(exitCodes.ok);
    });

  skills
    .command('match')
    .description('Which skill an instruction matches, with the values bound to its parameters (no screen: the precondition is not checked). Exit 1 when none or several fit.')
    .argument('<instruction>', 'the task instruction')
    .option('--dir <dir>', 'skills folder', defaultDir)
    .option('--app <package>', 'only skills of this app')
    .action((instruction: string, options: { dir: string; app?: string }) => {
      const loaded = loadSkills(path.resolve(io.cwd, options.dir));
      const result = matchSkill(loaded, instruction, options.app === undefined ? {} : { app: options.app });
      if (result.kind === 'none') {
        io.stdout(`no match: ${result.reason}\n`);
        setExitCode(exitCodes.failure);
        return;
      }
      io.stdout(`${result.match.skill.name}\n`);
      for (const [name, binding] of Object.entries(result.match.bindings)) io.stdout(`  {${name}} = ${binding.value} (${binding.type})\n`);
      setExitCode(exitCodes.ok);
    });
};
