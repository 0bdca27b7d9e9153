import { z } from 'zod';
import { stateCheckSchema, statePathPattern } from './state-check-schema.js';
import { linearRegexProblem } from '../util/linear-regex.js';

/**
 * Task and suite schemas (docs/architecture.md §2.10). The schema is the only definition of a task:
 * types come from `z.infer`, the loader validates YAML with it, and every object is
 * strict, so a misspelt field is an error rather than silently ignored.
 */

const packageName = z
  .string()
  .regex(/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/, 'expected an Android package name such as "com.android.settings"');

/** A predicate in the text form of docs/predicates.md (validated by the loader). */
const predicateText = z.string().trim().min(1, 'expected a predicate in the text form of docs/predicates.md');

/** A target query in the predicate text form: the part inside `exists(...)`, e.g. `desc="Add alarm"`. */
const targetQuery = z.string().trim().min(1, 'expected a target query such as desc="Add alarm" (docs/predicates.md)');

/** Where a task comes from. */
export const taskSourceSchema = z.discriminatedUnion('benchmark', [
  z.strictObject({
    benchmark: z.literal('androidlab'),
    /** The original task id, e.g. `clock_1`. */
    id: z.string().regex(/^[a-z]+_\d+$/, 'expected an AndroidLab task id such as "clock_1"'),
    /** The original metric type: `operation` (change something) or `query_detect` (answer a question). */
    metricType: z.enum(['operation', 'query_detect']),
    /** How the original judged it: from the final XML, from adb output, or an LLM comparing the answer. */
    judge: z.enum(['xml_state', 'adb_command', 'answer_llm_judge']),
    category: z.string().optional(),
  }),
  z.strictObject({
    benchmark: z.literal('droidtask'),
    /** DroidTask application name as in its tasks.csv, e.g. `clock`. */
    app: z.string().min(1),
    /** The original instruction, verbatim. */
    task: z.string().min(1),
  }),
  z.strictObject({
    benchmark: z.literal('androidworld'),
    /** AndroidWorld's task class (its template), e.g. `SystemWifiTurnOff`. */
    template: z.string().regex(/^[A-Z][A-Za-z0-9]+$/, 'expected an AndroidWorld task class name such as "SystemWifiTurnOff"'),
    /** The parameters the seeded generator drew for this instance (src/tasks/androidworld). */
    params: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
    /** The generator's seed. */
    seed: z.number().int().nonnegative(),
  }),
  z.strictObject({
    benchmark: z.literal('senseact'),
    /**
     * A template variant we wrote: the id of the task (same suite) whose instruction has the
     * same shape with other slot values — a time, a name, a label, a setting, a quoted
     * text — so a train/test split of the suite holds siblings on both sides (docs/skills.md).
     */
    variantOf: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'expected the id of the task this one is a variant of').optional(),
  }),
]);
export type TaskSource = z.infer<typeof taskSourceSchema>;

/** An emulator snapshot name as the console takes it (`avd snapshot load <name>`): no spaces. */
const snapshotNameSchema = z.string().regex(/^[\w.-]+$/, 'expected a snapshot name of letters, digits, "_", "." or "-" (as in `adb emu avd snapshot load <name>`)');

/**
 * One setup step on a real device, run before the task starts, in order (see
 * `src/bench/run-device-setup.ts`): through Appium, `adb shell …` steps and `pmClear` need
 * the server's insecure feature `adb_shell`, `snapshot` needs `emulator_console`.
 */
export const deviceSetupStepSchema = z.union([
  /** An adb command without the leading `adb`, e.g. `shell settings put global airplane_mode_on 0`. Through Appium only `shell …` runs. */
  z.strictObject({ adb: z.string().min(1), note: z.string().optional() }),
  z.strictObject({ launch: packageName }),
  /** The package must be installed; `apk` names the file to install when it is not (e.g. DroidTask's `apks/…apk`). */
  z.strictObject({ installed: packageName, apk: z.string().min(1).optional() }),
  /** `pm clear <package>`: the app's data and runtime permissions as on a fresh install. */
  z.strictObject({ pmClear: packageName }),
  /** Loads an emulator snapshot (`adb emu avd snapshot load <name>`, AndroidLab's per-task reset). Emulators only. */
  z.strictObject({ snapshot: snapshotNameSchema }),
  /**
   * One emulator console command (`adb emu <command>`), e.g. `sms send 5551234 Hello` for a
   * received text message (AndroidWorld's SMS tasks start so). Emulators only; through
   * Appium it needs the insecure feature `emulator_console`.
   */
  z.strictObject({ emu: z.string().trim().min(1).regex(/^(?!avd\s+snapshot\s+load\b)/, 'load a snapshot with a snapshot: step, which must come first') }),
  /** A precondition a person must establish (e.g. "log in to Zoom"); runners report it, never fake it. */
  z.strictObject({ manual: z.string().min(1) }),
]);
export type DeviceSetupStep = z.infer<typeof deviceSetupStepSchema>;


/** How a task starts: on the simulator (seed, per-app seed data, app to launch) and/or on a device. */
export const taskStartSchema = z.strictObject({
  /** Simulator random seed. */
  seed: z.number().int().nonnegative().optional(),
  /** Per-app seed data for the simulator, keyed by package; each app's own zod schema checks it. */
  state: z.record(packageName, z.unknown()).optional(),
  /** The app in the foreground at the start. */
  launch: packageName.optional(),
  /** Setup steps on a real device. A `snapshot` step, which replaces the whole device state, may only come first. */
  device: z
    .array(deviceSetupStepSchema)
    .optional()
    .superRefine((steps, context) => {
      (steps ?? []).forEach((step, index) => {
        if ('snapshot' in step && index > 0) context.addIssue({ code: 'custom', path: [index, 'snapshot'], message: 'a snapshot load replaces the whole device state, undoing the steps before it: make it the first step' });
      });
    }),
});
export type TaskStart = z.infer<typeof taskStartSchema>;

/** A regex over an adb command's output, checked for the linear-time engine when the task loads. */
const adbPatternSchema = z.string().superRefine((pattern, context) => {
  const problem = linearRegexProblem(pattern);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: `invalid regex: ${problem}` });
});

/** An adb query whose output decides success on a real device. Exactly one of the expectations. */
export const adbCheckSchema = z.strictObject({
  /** The command as run on the host, e.g. `adb shell settings get global bluetooth_on`. */
  command: z.string().regex(/^adb\s/, 'expected a command starting with "adb "'),
  expect: z
    .strictObject({
      equals: z.string().optional(),
      contains: z.string().optional(),
      matches: adbPatternSchema.optional(),
      /** Holds when the pattern matches nowhere in the output ("no row names Bob"). */
      notMatches: adbPatternSchema.optional(),
    })
    .refine((value) => Object.values(value).filter((entry) => entry !== undefined).length === 1, 'give exactly one of equals, contains, matches, notMatches'),
});
export type AdbCheck = z.infer<typeof adbCheckSchema>;

/** The task's own success check (the agent never decides success). At least one part. */
export const successSchema = z
  .strictObject({
    /** A predicate over the final screen (docs/predicates.md). */
    screen: predicateText.optional(),
    /** Checks over the simulator's app state (see state-check-schema.ts). */
    state: z.array(stateCheckSchema).min(1).optional(),
    /** Checks over adb outputs on a real device. */
    adb: z.array(adbCheckSchema).min(1).optional(),
    /**
     * `model`: the outcome is not observable by a predicate or an adb query (a photo was
     * taken, a song plays): a model judge must decide from the final screen, and `criterion`
     * says what it should see. No model judge of screens runs yet, so such a check is
     * inconclusive (never a success) and results say why.
     */
    judge: z.literal('model').optional(),
    criterion: z.string().trim().min(1).optional(),
  })
  .refine((value) => value.screen !== undefined || value.state !== undefined || value.adb !== undefined || value.judge !== undefined, 'give at least one of screen, state, adb, judge')
  .refine((value) => (value.judge === undefined) === (value.criterion === undefined), 'judge: model goes with a criterion (what the judge should see on the final screen), and a criterion with judge: model');
export type Success = z.infer<typeof successSchema>;

/** The expected answer of a query task. */
export const answerSchema = z
  .strictObject({
    /** Accepted answers; any one matching is correct. */
    expected: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /**
     * On a real device the truth may be device-specific (the time zone, the Android
     * version): read it from this adb command at the end of the run, optionally mapping
     * the raw output (trimmed) to the accepted answer, e.g. `{ "1": "open" }`.
     */
    fromAdb: z.strictObject({ command: z.string().regex(/^adb\s/, 'expected a command starting with "adb "'), map: z.record(z.string(), z.string()).optional() }).optional(),
    /** `model`: an LLM judge compares meaning (exact match is the fallback when no model is configured). */
    judge: z.enum(['exact', 'model']),
    /** What the judge should know (e.g. "the time changes; compare the difference"). */
    notes: z.string().optional(),
  })
  .refine((value) => value.expected !== undefined || value.fromAdb !== undefined, 'give expected answers, fromAdb, or both');
export type Answer = z.infer<typeof answerSchema>;

const scrollDirection = z.enum(['up', 'down', 'left', 'right']);

/** One unit of a reference solution: a typed control action on a target query. */
export const solutionActionSchema = z.discriminatedUnion('unit', [
  z.strictObject({ unit: z.literal('click'), target: targetQuery }),
  z.strictObject({ unit: z.literal('long-press'), target: targetQuery }),
  z.strictObject({ unit: z.literal('commit'), target: targetQuery }),
  /** Replaces the field's text with `value`. */
  z.strictObject({ unit: z.literal('fill'), target: targetQuery, value: z.union([z.string(), z.number()]).transform(String) }),
  /** Sets a switch/checkbox to `value`, or flips it when `value` is absent. */
  z.strictObject({ unit: z.literal('toggle'), target: targetQuery, value: z.boolean().optional() }),
  /** Chooses an option: taps `target` (the option). */
  z.strictObject({ unit: z.literal('select'), target: targetQuery }),
  /**
   * Scrolls the container `target` (the first scrollable one when absent) in `direction`
   * (`down` shows content further down); with `until`, repeats until that query matches.
   */
  z.strictObject({ unit: z.literal('scroll'), direction: scrollDirection, target: targetQuery.optional(), until: targetQuery.optional() }),
  z.strictObject({ unit: z.literal('navigate'), key: z.enum(['back', 'home']).optional(), launch: packageName.optional() })
    .refine((value) => (value.key === undefined) !== (value.launch === undefined), 'navigate takes exactly one of key (back|home) or launch (a package)'),
  z.strictObject({ unit: z.literal('finish'), answer: z.string().optional() }),
]);
export type SolutionAction = z.infer<typeof solutionActionSchema>;

/** One screen-scoped intent of a reference solution, with its actions and optional expectation. */
export const solutionStepSchema = z.strictObject({
  intent: z.string().min(1),
  actions: z.array(solutionActionSchema).min(1),
  /** What must hold after the actions (a predicate over the screen). */
  expect: predicateText.optional(),
});
export type SolutionStep = z.infer<typeof solutionStepSchema>;

/**
 * One piece of state a task may change besides what its success check reads (tasks/README.md,
 * "Scope"): a state path of a simulated app (a path covers everything under it; `[*]` any
 * element), or an adb query whose output may change on a device (as in the device profile's `watch`).
 */
export const scopeEntrySchema = z.union([
  z.strictObject({ app: packageName, path: z.string().regex(statePathPattern, 'expected a state path such as network.wifi or alarms[*].enabled') }),
  z.strictObject({ adb: z.string().regex(/^adb\s/, 'expected a command starting with "adb "') }),
]);
export type ScopeEntry = z.infer<typeof scopeEntrySchema>;

/** A task: one instruction, how it starts, how its success is decided. */
export const taskSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'expected a lowercase id such as "clock-add-alarm"'),
    /** The package the task is about. */
    app: packageName,
    instruction: z.string().trim().min(1),
    /** Where the task comes from; a task of your own may leave it out (`{ benchmark: senseact }`). */
    source: taskSourceSchema.default({ benchmark: 'senseact' }),
    start: taskStartSchema.default({}),
    success: successSchema.optional(),
    answer: answerSchema.optional(),
    solution: z.array(solutionStepSchema).min(1).optional(),
    /** Packages the agent may enter; leaving them is a failure (besides system surfaces: launcher, permission dialogs, keyboard). */
    allowedPackages: z.array(packageName).min(1),
    /**
     * True when entering another app is part of the task (a share sheet, a link that opens
     * the browser): the agent is still brought back at once and the visit recorded, but it
     * does not fail the task. Default false.
     */
    mayLeaveAllowedApps: z.boolean().optional(),
    /**
     * State the task may change beyond what its success check reads (the check's own paths and
     * adb queries are in scope already): any other change of watched state fails the run as a
     * side effect.
     */
    scope: z.array(scopeEntrySchema).min(1).optional(),
    /** Maximum number of agent steps (one step = one executed unit). */
    stepBudget: z.number().int().positive(),
    /** Limits on the model calls, tokens and cost of one run of the task (the tighter of these and the bench's options wins). */
    modelBudget: z.strictObject({
      maxModelCalls: z.number().int().positive().optional(),
      maxTokens: z.number().int().positive().optional(),
      maxCostUsd: z.number().positive().optional(),
    }).optional(),
    /**
     * Steps a person needs (AndroidLab's ground_truth_length.json for its tasks): the
     * numerator of the reversed redundancy ratio. Absent: the task has no RRR.
     */
    referenceSteps: z.number().int().positive().optional(),
    /**
     * The id of the same instruction in a simulator suite (`tasks/sim`, or `tasks/sim-*` such
     * as `sim-androidworld`): a task of another benchmark our simulated apps host. On a
     * simulated device the bench runs that task, under this task's id.
     */
    simTwin: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'expected the id of a task of a simulator suite (tasks/sim or tasks/sim-*)').optional(),
    /**
     * Why the original benchmark's check of this task is not expressed here (it needs data we
     * cannot seed, or evidence no check of ours reads): such a task is listed, never run as
     * if checked; the bench's plan check gives this reason. Its `success` is then a
     * `judge: model` criterion, which ends inconclusive.
     */
    uncovered: z.string().trim().min(1).optional(),
    tags: z.array(z.string().min(1)).default([]),
    /** How hard the task is, for the per-difficulty table; a task without one is counted under "unknown". */
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  })
  .superRefine((task, context) => {
    if (task.success === undefined && task.answer === undefined) {
      context.addIssue({ code: 'custom', path: ['success'], message: 'a task needs a success check, an answer, or both' });
    }
    if (task.uncovered !== undefined && task.success?.judge === undefined) {
      context.addIssue({ code: 'custom', path: ['uncovered'], message: 'a task whose check is not covered (uncovered: why) has no check of ours: give success: { judge: model, criterion }, which ends inconclusive' });
    }
    if (!task.allowedPackages.includes(task.app)) {
      context.addIssue({ code: 'custom', path: ['allowedPackages'], message: `allowedPackages must include the task's app "${task.app}"` });
    }
  });
export type Task = z.infer<typeof taskSchema>;
/** A task as written in YAML, before defaults are applied. */
export type TaskInput = z.input<typeof taskSchema>;

/** One YAML file: a list of tasks. */
export const taskFileSchema = z.strictObject({
  tasks: z.array(taskSchema).min(1),
});
export type TaskFile = z.infer<typeof taskFileSchema>;

/** A suite: every task of the YAML files in one folder under tasks/. Task ids are unique within it. */
export const suiteSchema = z
  .strictObject({
    name: z.string().min(1),
    tasks: z.array(taskSchema),
  })
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    suite.tasks.forEach((task, index) => {
      if (seen.has(task.id)) context.addIssue({ code: 'custom', path: ['tasks', index, 'id'], message: `duplicate task id "${task.id}" in suite "${suite.name}"` });
      seen.add(task.id);
    });
    const ids = new Set(suite.tasks.map((task) => task.id));
    suite.tasks.forEach((task, index) => {
      const of = task.source.benchmark === 'senseact' ? task.source.variantOf : undefined;
      if (of === undefined) return;
      if (of === task.id) context.addIssue({ code: 'custom', path: ['tasks', index, 'source', 'variantOf'], message: `task "${task.id}" is marked a variant of itself: name the task whose template it varies` });
      else if (!ids.has(of)) context.addIssue({ code: 'custom', path: ['tasks', index, 'source', 'variantOf'], message: `task "${task.id}" is a variant of "${of}", which is not in suite "${suite.name}": name a task of the same suite` });
    });
  });
export type Suite = z.infer<typeof suiteSchema>;
