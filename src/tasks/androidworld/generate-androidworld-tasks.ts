import { SeededRandom } from '../../util/seeded-random.js';
import { TaskLoadError, type TaskLoadProblem } from '../task-load-error.js';
import type { DeviceSetupStep, TaskInput } from '../task-schema.js';
import { androidWorldPackages as packages, installed, shell, type AndroidWorldApp } from './androidworld-device-steps.js';
import { androidWorldMetadataSchema, type AndroidWorldTemplateMetadata } from './androidworld-metadata.js';
import { fillTemplate, type TemplateParams } from './androidworld-params.js';
import { drawPlaceholder } from './androidworld-placeholders.js';
import type { SimTwin, SimTwinDefaults } from './androidworld-sim-twins.js';
import type { AndroidWorldTemplate } from './androidworld-template.js';
import { androidWorldTemplates } from './androidworld-templates.js';

/** AndroidWorld's own default task seed (its runner's `--task_random_seed`); ours too. */
export const defaultAndroidWorldSeed = 30;

/** Where the metadata lives in the repo, for error messages. */
const metadataFile = 'tasks/androidworld/task_metadata.json';

/** The generated suites: the device tasks (one per template) and the simulator twins. */
export interface AndroidWorldSuites {
  /** One task per template, in the metadata's order (suite `androidworld`). */
  readonly tasks: readonly TaskInput[];
  /** The simulator twins (suite `sim-androidworld`), linked from `tasks` by `simTwin`. */
  readonly twins: readonly TaskInput[];
}

/** `SystemWifiTurnOff` → `aw-system-wifi-turn-off`. */
export function androidWorldTaskId(template: string, twin = false): string {
  const kebab = template.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
  return `aw-${twin ? 'twin-' : ''}${kebab}`;
}

/**
 * Builds the AndroidWorld suite from its `task_metadata.json` (as parsed JSON): per
 * template, parameters drawn from a stream seeded by `seed` and the template's name (so
 * one template's draws never shift another's), the instruction filled in, the start steps
 * (install check, the app's state reset, the template's own data), the check or the reason
 * it is not expressed, `referenceSteps` from the optimal steps, and the twin where the
 * simulator has the app. Same metadata and seed, same output. Throws `TaskLoadError` for
 * metadata that does not parse, a template we have no entry for, or a placeholder left
 * without a value.
 */
export function generateAndroidWorldTasks(metadata: unknown, options: { readonly seed?: number; readonly simDefaults: SimTwinDefaults }): AndroidWorldSuites {
  const parsed = androidWorldMetadataSchema.safeParse(metadata);
  if (!parsed.success) throw new TaskLoadError(parsed.error.issues.map((issue) => ({ file: metadataFile, field: issue.path.join('.'), message: issue.message })));
  const seed = options.seed ?? defaultAndroidWorldSeed;
  const problems: TaskLoadProblem[] = [];
  const tasks: TaskInput[] = [];
  const twins: TaskInput[] = [];
  for (const entry of parsed.data) {
    const template = androidWorldTemplates[entry.task_name];
    if (template === undefined) {
      problems.push({ file: metadataFile, field: entry.task_name, message: `no template entry for "${entry.task_name}": add one to src/tasks/androidworld/androidworld-templates.ts` });
      continue;
    }
    const random = new SeededRandom(seed, entry.task_name);
    const params = template.params?.(random) ?? placeholderParams(entry.task_template, random);
    const instruction = fillTemplate(entry.task_template, params).trim();
    const left = /\{(\w+)\}/.exec(instruction);
    if (left !== null) {
      problems.push({ file: metadataFile, field: entry.task_name, message: `placeholder {${left[1]}} has no drawn value: draw it in the template's params` });
      continue;
    }
    const twin = template.twin?.(params, options.simDefaults);
    const twinId = twin === undefined ? undefined : androidWorldTaskId(entry.task_name, true);
    tasks.push(deviceTask(entry, template, params, instruction, seed, twinId));
    if (twin !== undefined && twinId !== undefined) twins.push(twinTask(entry, twin, params, instruction, seed, twinId));
  }
  if (problems.length > 0) throw new TaskLoadError(problems);
  return { tasks, twins };
}

function kebab(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

function placeholderParams(template: string, random: SeededRandom): TemplateParams {
  const params: Record<string, string | number> = {};
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
    if (name === undefined || name in params) continue;
    const value = drawPlaceholder(name, random);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

function common(entry: AndroidWorldTemplateMetadata, params: TemplateParams, instruction: string, seed: number) {
  return {
    instruction,
    source: { benchmark: 'androidworld' as const, template: entry.task_name, params: { ...params }, seed },
    stepBudget: Math.max(10, 2 * entry.optimal_steps),
    referenceSteps: entry.optimal_steps,
    difficulty: entry.difficulty,
  };
}

function deviceTask(entry: AndroidWorldTemplateMetadata, template: AndroidWorldTemplate, params: TemplateParams, instruction: string, seed: number, twinId: string | undefined): TaskInput {
  const device = template.device(params);
  const apps: AndroidWorldApp[] = [template.app, ...(template.also ?? [])];
  const appPackage = packages[template.app];
  const launch = device.home === true ? undefined : device.launch ?? appPackage;
  const steps: DeviceSetupStep[] = [...apps.map(installed), ...device.start, ...(device.home === true ? [shell('input keyevent KEYCODE_HOME')] : [{ launch: launch ?? appPackage }])];
  const covered = device.uncovered === undefined;
  const success = covered
    ? { ...(device.screen === undefined ? {} : { screen: device.screen }), ...(device.adb === undefined ? {} : { adb: [...device.adb] }) }
    : { judge: 'model' as const, criterion: `AndroidWorld's own check is not expressed here (see uncovered); the device shows: ${instruction}` };
  return {
    id: androidWorldTaskId(entry.task_name),
    app: appPackage,
    ...common(entry, params, instruction, seed),
    start: { ...(launch === undefined ? {} : { launch }), device: steps },
    ...(covered && device.screen === undefined && device.adb === undefined ? {} : { success }),
    ...(covered && device.answer !== undefined ? { answer: device.answer } : {}),
    ...(twinId === undefined ? {} : { simTwin: twinId }),
    ...(covered ? {} : { uncovered: device.uncovered }),
    allowedPackages: [...new Set([...apps.map((app) => packages[app]), ...(device.allow ?? [])])],
    ...(template.anyApp === true ? { mayLeaveAllowedApps: true } : {}),
    tags: ['androidworld', kebab(template.app), ...entry.tags.filter((tag) => tag !== ''), covered ? 'covered' : 'uncovered', ...(twinId === undefined ? [] : ['sim-twin'])],
  };
}

function twinTask(entry: AndroidWorldTemplateMetadata, twin: SimTwin, params: TemplateParams, instruction: string, seed: number, id: string): TaskInput {
  const involved = [twin.app, twin.start.launch, ...Object.keys(twin.start.state ?? {}), ...(twin.success.state ?? []).map((check) => check.app)].filter((name): name is string => name !== undefined);
  const app = involved[0];
  if (app === undefined) throw new TaskLoadError([{ file: metadataFile, field: entry.task_name, message: 'its twin names no app (give app, start.launch or a state check)' }]);
  return {
    id,
    app,
    ...common(entry, params, instruction, seed),
    // AndroidWorld's optimal steps count its own setup (deleting all of 2–6 notes is 7): the twin's budget also fits its solution twice.
    stepBudget: Math.max(10, 2 * entry.optimal_steps, 2 * twin.solution.reduce((units, step) => units + step.actions.length, 0)),
    start: twin.start,
    success: twin.success,
    solution: twin.solution,
    ...(twin.scope === undefined ? {} : { scope: twin.scope }),
    allowedPackages: [...new Set(involved)],
    tags: ['androidworld', 'sim-twin'],
  };
}
