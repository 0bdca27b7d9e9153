import * as path from 'node:path';
import { createDroidTaskPredictor } from '../../agent/baselines/droidtask-predictor.js';
import { cassetteFromEnv, openAiModels } from '../../bench/compose.js';
import { modelConfigFromEnv } from '../../model/model-config-from-env.js';
import { loadDroidTaskApp } from '../../tasks/droidtask/load-droidtask-app.js';
import { runDroidTaskStepMode, type Ratio } from '../../tasks/droidtask/score-droidtask.js';
import { SenseActError } from '../../util/senseact-error.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

function percent(ratio: Ratio): string {
  return `${(ratio.value * 100).toFixed(1)}% (${ratio.numerator}/${ratio.denominator})`;
}

/**
 * `senseact droidtask <user_tasks/app>...`: DroidTask's offline step mode with the
 * SenseAct planner over recorded DroidBot states; prints action accuracy and completion
 * rate as DroidTask's evaluator defines them. It measures a model's choices, so it needs
 * a model (or a recorded cassette to replay).
 */
export const droidTaskCommand: CommandRegistration = (program, io, setExitCode) => {
  program
    .command('droidtask')
    .description('DroidTask offline step mode: the planner picks an action on each recorded screen; prints action accuracy and completion rate.')
    .argument('<app-dir...>', 'DroidTask app folders as downloaded (user_tasks/<app>/ with task*.yaml, states/, events/)')
    .option('--json', 'print the metrics and per-task scores as JSON')
    .action(async (dirs: string[], options: { json?: boolean }) => {
      const config = modelConfigFromEnv(io.env);
      const cassette = cassetteFromEnv(io.env, io.cwd);
      if (!config.ready && cassette?.mode !== 'replay') {
        throw new SenseActError({ code: 'droidtask-no-model', message: `droidtask step mode scores a model's choices and needs one: ${config.problems.join('; ')} (or SENSEACT_CASSETTE=replay:<file> to replay a recorded run).` });
      }
      const models = openAiModels(config, cassette);
      const episodes = [];
      for (const dir of dirs) episodes.push(...(await loadDroidTaskApp(path.resolve(io.cwd, dir))).episodes);
      const { scores, metrics } = await runDroidTaskStepMode(episodes, createDroidTaskPredictor(models.planner));
      if (options.json) {
        io.stdout(`${JSON.stringify({ metrics, scores }, null, 2)}\n`);
      } else {
        io.stdout(`DroidTask step mode: ${episodes.length} tasks, ${metrics.actionAccuracy.denominator} steps\n`);
        io.stdout(`action accuracy  ${percent(metrics.actionAccuracy)}\ncompletion rate  ${percent(metrics.completionRate)}\nfinish accuracy  ${percent(metrics.finishAccuracy)}\n`);
        for (const [app, perApp] of Object.entries(metrics.perApp)) io.stdout(`  ${app}: action accuracy ${percent(perApp.actionAccuracy)}, completion ${percent(perApp.completionRate)}\n`);
      }
      setExitCode(exitCodes.ok);
    });
};
