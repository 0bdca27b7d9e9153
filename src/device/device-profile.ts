import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { repoRoot } from './appium-server.js';
import { parseYamlSafely } from '../util/parse-yaml-safely.js';
import { DeviceProfileError } from './device-profile-error.js';
import { interpolateEnv } from './interpolate-env.js';
import { retryPolicySchema } from './retry-policy.js';
import { settleOptionsSchema } from './settle-hierarchy.js';
import { asPathKindError } from '../util/path-kind-error.js';

const screenSchema = z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive(), density: z.number().int().positive() });

/** The in-process simulator: `new Simulator(sim)` behind `SimDevice`. */
export const simDeviceProfileSchema = z.strictObject({
  kind: z.literal('sim'),
  name: z.string().min(1),
  description: z.string().optional(),
  sim: z
    .strictObject({
      seed: z.number().int().optional(),
      /** A fault profile name (`none`, `standard`) or a fault config object. */
      faults: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
      startPackage: z.string().min(1).optional(),
      apps: z.array(z.string().min(1)).optional(),
      screen: screenSchema.optional(),
      initialState: z.record(z.string(), z.unknown()).optional(),
    })
    .default({}),
  settle: settleOptionsSchema.optional(),
  /**
   * Words or phrases of actions that cannot be undone on this device's apps, besides the
   * built-in ones (delete, pay, buy, send, uninstall, factory reset): an action whose label
   * or dialog says one is confirmed by a person first (`senseact mcp`, `SenseActAgent`'s `confirm`).
   */
  irreversible: z.array(z.string().min(1)).optional(),
});

/** An Appium server (UiAutomator2 on an emulator or phone, or the simulator's SenseActSim driver). */
export const appiumDeviceProfileSchema = z.strictObject({
  kind: z.literal('appium'),
  name: z.string().min(1),
  description: z.string().optional(),
  appium: z.strictObject({
    /** Server URL; `--url` on the CLI overrides it. */
    url: z.url({ protocol: /^https?$/ }),
    /**
     * The URL is a Selenium Grid 4 hub (or another router of sessions to many devices:
     * appium-device-farm, a cloud farm): a session lands on any device whose stereotype
     * matches the capabilities. `devices check` then reads the hub's nodes, and a lost
     * session is re-created only when the new one names the same device.
     */
    grid: z.boolean().optional(),
    /** W3C capabilities; `platformName` and `appium:automationName` are required. */
    capabilities: z
      .record(z.string(), z.unknown())
      .refine((caps) => typeof caps['platformName'] === 'string', { message: 'needs platformName (e.g. Android)' })
      .refine((caps) => typeof caps['appium:automationName'] === 'string', { message: 'needs appium:automationName (UiAutomator2, or SenseActSim for the simulator)' }),
  }),
  settle: settleOptionsSchema.optional(),
  /**
   * Words or phrases of actions that cannot be undone on this device's apps, besides the
   * built-in ones (delete, pay, buy, send, uninstall, factory reset): an action whose label
   * or dialog says one is confirmed by a person first (`senseact mcp`, `SenseActAgent`'s `confirm`).
   */
  irreversible: z.array(z.string().min(1)).optional(),
  /**
   * adb queries watched for side effects (e.g. `adb shell settings get global airplane_mode_on`):
   * read before and after every run through Appium's `mobile: shell`; a run that changes an
   * output its task's scope does not allow fails as `side effect: <query> changed from … to …`.
   * Output lines are compared sorted (a package list has no fixed order).
   */
  watch: z.array(z.string().regex(/^adb\s+shell\s+\S/, 'expected an "adb shell …" query (it runs through Appium\'s mobile: shell)')).optional(),
  retry: retryPolicySchema.optional(),
  /** Deadline of one device call, retries and settling included. */
  callTimeoutMs: z.number().int().positive().optional(),
  /**
   * Deadline of opening a session (default `callTimeoutMs`). Behind a grid a request waits
   * in the hub's queue while every node is busy: raise it when bench --concurrency is
   * larger than the number of devices.
   */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** Screen density when the server does not report it. */
  density: z.number().int().positive().optional(),
  /**
   * Read the foreground task's activity stack at each new screen (`dumpsys activity
   * activities` through `mobile: shell`, which needs `adb_shell`); default true. `false`
   * saves that call per screen; Back and an editor's Save are then verified without it.
   */
  activityStack: z.boolean().optional(),
  /**
   * A reset before every task of a bench, so that a suite run is repeatable: load an
   * emulator snapshot (`adb emu avd snapshot load <name>`, AndroidLab's reset; the server
   * must allow the insecure feature `emulator_console`), or `pm clear` the task's app
   * (`adb_shell`). It runs before the task's own `start.device` steps.
   */
  reset: z
    .union([
      z.strictObject({ snapshot: z.string().regex(/^[\w.-]+$/, 'expected a snapshot name of letters, digits, "_", "." or "-"') }),
      z.strictObject({ pmClear: z.literal(true) }),
    ])
    .optional(),
});

/** A device profile (`devices/*.yaml`). */
export const deviceProfileSchema = z.discriminatedUnion('kind', [simDeviceProfileSchema, appiumDeviceProfileSchema]);
export type DeviceProfile = z.infer<typeof deviceProfileSchema>;
export type SimDeviceProfile = z.infer<typeof simDeviceProfileSchema>;
export type AppiumDeviceProfile = z.infer<typeof appiumDeviceProfileSchema>;

/**
 * Checks parsed YAML against the schema. Throws `DeviceProfileError` naming `file` and
 * every offending field (`appium.capabilities`, `settle.intervalMs`, ...).
 */
export function parseDeviceProfile(data: unknown, file: string): DeviceProfile {
  const result = deviceProfileSchema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  - ${issue.path.length > 0 ? issue.path.join('.') : '(top level)'}: ${issue.message}`);
  throw new DeviceProfileError({
    file,
    message: `Device profile ${file} is invalid:\n${problems.join('\n')}\nFix these fields (see devices/sim.yaml and devices/emulator.yaml for examples).`,
    cause: result.error,
  });
}

/**
 * Loads a profile by name (`sim` → `devices/sim.yaml`, looked up in `cwd` and then in
 * the repository) or by path (anything with a `/` or ending in `.yaml`/`.yml`). String
 * values may name environment variables (`${ANDROID_SERIAL}`, `${APPIUM_URL:-http://127.0.0.1:4723}`;
 * see `interpolateEnv`), read from `env` (default: the process environment); `name` is kept as
 * written (it is recorded in every trace, so no variable's value may reach it).
 * Throws `DeviceProfileError` for a missing file, bad YAML, an unset variable, or a schema violation.
 */
export function loadDeviceProfile(nameOrPath: string, options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string | undefined>> } = {}): DeviceProfile {
  const cwd = options.cwd ?? process.cwd();
  const isPath = /[\\/]/.test(nameOrPath) || /\.ya?ml$/i.test(nameOrPath);
  const candidates = isPath
    ? [path.resolve(cwd, nameOrPath)]
    : [path.join(cwd, 'devices', `${nameOrPath}.yaml`), path.join(repoRoot(), 'devices', `${nameOrPath}.yaml`)];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    throw new DeviceProfileError({ file: nameOrPath, message: `No device profile '${nameOrPath}': looked for ${candidates.join(', ')}. Use a profile name from devices/ (sim, sim-appium, emulator, androidlab) or a path to a .yaml file.` });
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw asPathKindError(error, file, 'device profile');
  }
  const yaml = parseYamlSafely(text);
  if (!yaml.success) {
    const problems = yaml.problems.map((problem) => `  - ${file}${problem.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`}: ${problem.message}`);
    throw new DeviceProfileError({ file, message: `Device profile ${file} is not valid YAML:\n${problems.join('\n')}\nFix the file (see devices/sim.yaml and devices/emulator.yaml for examples).` });
  }
  const interpolated = interpolateEnv(yaml.value.value, options.env ?? process.env);
  if (!interpolated.success) {
    throw new DeviceProfileError({ file, message: `Device profile ${file} names environment variables that are not set: ${interpolated.error}. Set them, or give a fallback as \${NAME:-value}.` });
  }
  return parseDeviceProfile(withRawName(interpolated.value, yaml.value.value), file);
}

/**
 * The profile's `name` as written, never interpolated: the name goes into every trace and
 * result, and `lab-${TOKEN}` would write the variable's value there.
 */
function withRawName(interpolated: unknown, raw: unknown): unknown {
  if (typeof interpolated !== 'object' || interpolated === null || Array.isArray(interpolated)) return interpolated;
  if (typeof raw !== 'object' || raw === null || !('name' in raw)) return interpolated;
  return { ...interpolated, name: raw.name };
}
