import type { SeededRandom } from '../../util/seeded-random.js';
import type { AdbCheck, Answer, DeviceSetupStep } from '../task-schema.js';
import type { AndroidWorldApp } from './androidworld-device-steps.js';
import type { TemplateParams } from './androidworld-params.js';
import type { SimTwin, SimTwinDefaults } from './androidworld-sim-twins.js';

/**
 * What the generator needs of one AndroidWorld template (docs/androidworld.md): its app,
 * how its parameters are drawn, its device start steps and check (or why it has none),
 * and its simulator twin where the simulator has the app.
 */

/** The device side of one task instance. */
export interface DevicePart {
  /** Start steps after the install check (AndroidWorld resets the app's state per task). */
  readonly start: readonly DeviceSetupStep[];
  /** The app in the foreground at the start (default: the template's app). */
  readonly launch?: string;
  readonly screen?: string;
  readonly adb?: readonly AdbCheck[];
  /** The true answer of a question task (read from the rows the start steps wrote). */
  readonly answer?: Answer;
  /** Why AndroidWorld's check is not expressed here. */
  readonly uncovered?: string;
  /** The task starts on the home screen (no app launched). */
  readonly home?: boolean;
  /** Packages the agent may enter besides the template's apps. */
  readonly allow?: readonly string[];
}

/** One template. */
export interface AndroidWorldTemplate {
  readonly app: AndroidWorldApp;
  /** Other apps the task uses (their install checks are added, and the agent may enter them). */
  readonly also?: readonly AndroidWorldApp[];
  /** Draws the parameters; default: each placeholder of the template by its name. */
  readonly params?: (random: SeededRandom) => TemplateParams;
  readonly device: (params: TemplateParams) => DevicePart;
  /** The simulator twin, when the simulator hosts the flow for these parameters. */
  readonly twin?: (params: TemplateParams, defaults: SimTwinDefaults) => SimTwin | undefined;
  /** The task needs some app of the agent's choice (a text field to copy from). */
  readonly anyApp?: boolean;
}

