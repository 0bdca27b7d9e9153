import { performance } from 'node:perf_hooks';
import { BaseDriver, errors, W3C_ELEMENT_KEY } from '@appium/base-driver';
import type { DefaultCreateSessionResult, Element as W3cElement } from '@appium/types';
import type { Element } from '@xmldom/xmldom';
import { z } from 'zod';
import { Simulator, type SimulatorOptions } from '../simulator.js';
import { SimulatorError } from '../simulator-error.js';
import { simApps } from '../sim-seed-data.js';
import { CommandStats, type CommandStatsSnapshot } from './command-stats.js';
import { ElementRegistry } from './element-registry.js';
import { ActionsError, gesturesFromActions, type SimGesture } from './pointer-gesture.js';
import { elementBounds, InvalidSelectorError, simLocatorStrategies, SourceDocument, type SimLocatorStrategy } from './source-document.js';

/** The `automationName` that selects this driver (`appium:automationName`). */
export const simAutomationName = 'SenseActSim';

const simCapConstraints = {
  platformName: { presence: true, isString: true, inclusionCaseInsensitive: ['Android'] },
  automationName: { presence: true, isString: true, inclusionCaseInsensitive: [simAutomationName] },
  appPackage: { isString: true },
  appActivity: { isString: true },
} as const;

/**
 * The simulator's own capabilities, under the `senseact:` vendor prefix:
 * `senseact:seed` (number), `senseact:faults` (a profile name such as `standard` or a
 * fault config object), `senseact:initialState` (seed data for the apps),
 * `senseact:screen` ({ width, height, density }), `senseact:apps` (installed packages).
 * The simulator keeps its own virtual clock, moved by observations and actions exactly
 * as in-process (and by `mobile: senseactAdvanceTime`), so a session replays the same
 * way whichever path drives it.
 */
const senseactCapsSchema = z.object({
  'senseact:seed': z.number().int().optional(),
  'senseact:faults': z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  'senseact:initialState': z.unknown().optional(),
  'senseact:screen': z.object({ width: z.number().int().positive(), height: z.number().int().positive(), density: z.number().int().positive() }).optional(),
  'senseact:apps': z.array(z.string()).optional(),
});

/**
 * The simulated emulator's snapshots by name (`mobile: execEmuConsoleCommand`), shared by
 * the sessions of one server process as an emulator's snapshots outlive its sessions.
 */
const simSnapshots = new Map<string, unknown>();

/** Android key codes that `mobile: pressKey` accepts (KEYCODE_HOME, KEYCODE_BACK, KEYCODE_ENTER). */
const keyCodes: Readonly<Record<number, 'home' | 'back' | 'enter'>> = { 3: 'home', 4: 'back', 66: 'enter' };

/** How long `mobile: scrollGesture` / `swipeGesture` take when no speed is given. */
const defaultGestureMs = 300;
/** Polling step of the implicit wait for elements. */
const implicitPollMs = 50;

type Point = readonly [number, number];

/**
 * An Appium 3 driver that hosts the SenseAct simulator: `platformName: Android`,
 * `appium:automationName: SenseActSim`. It answers the WebDriver and `mobile:` commands an
 * agent and WebdriverIO use on a UiAutomator2 session, so the client code that drives
 * phones drives the simulator unchanged. Page source is the UiAutomator2 dialect;
 * element ids stay valid across sources while their node keeps its identity.
 * `mobile: senseactStats` reports the time spent inside command handlers.
 */
export class SimAppiumDriver extends BaseDriver<typeof simCapConstraints> {
  static executeMethodMap = {
    'mobile: clickGesture': { command: 'mobileClickGesture', params: { optional: ['elementId', 'x', 'y', 'locator'] } },
    'mobile: longClickGesture': { command: 'mobileLongClickGesture', params: { optional: ['elementId', 'x', 'y', 'duration', 'locator'] } },
    'mobile: scrollGesture': { command: 'mobileScrollGesture', params: { required: ['direction'], optional: ['elementId', 'left', 'top', 'width', 'height', 'percent', 'speed'] } },
    'mobile: swipeGesture': { command: 'mobileSwipeGesture', params: { required: ['direction'], optional: ['elementId', 'left', 'top', 'width', 'height', 'percent', 'speed'] } },
    'mobile: type': { command: 'mobileType', params: { required: ['text'] } },
    'mobile: pressKey': { command: 'mobilePressKey', params: { required: ['keycode'], optional: ['metastate', 'flags', 'isLongPress'] } },
    'mobile: hideKeyboard': { command: 'hideKeyboard', params: { optional: ['strategy', 'key', 'keyCode', 'keyName'] } },
    'mobile: isKeyboardShown': { command: 'isKeyboardShown' },
    'mobile: getCurrentPackage': { command: 'getCurrentPackage' },
    'mobile: getCurrentActivity': { command: 'getCurrentActivity' },
    'mobile: startActivity': { command: 'mobileStartActivity', params: { optional: ['intent', 'component', 'appPackage', 'appActivity', 'package', 'activity', 'wait', 'stop'] } },
    'mobile: activateApp': { command: 'activateApp', params: { required: ['appId'] } },
    'mobile: terminateApp': { command: 'terminateApp', params: { required: ['appId'], optional: ['timeout'] } },
    'mobile: queryAppState': { command: 'queryAppState', params: { required: ['appId'] } },
    'mobile: isAppInstalled': { command: 'isAppInstalled', params: { required: ['appId'] } },
    'mobile: shell': { command: 'mobileShell', params: { required: ['command'], optional: ['args', 'timeout', 'includeStderr'] } },
    'mobile: execEmuConsoleCommand': { command: 'mobileExecEmuConsoleCommand', params: { required: ['command'], optional: ['execTimeout', 'connTimeout', 'initTimeout'] } },
    'mobile: senseactStats': { command: 'mobileSenseactStats', params: { optional: ['reset'] } },
    'mobile: senseactAdvanceTime': { command: 'mobileSenseactAdvanceTime', params: { required: ['ms'] } },
    'mobile: senseactState': { command: 'mobileSenseactState' },
    'mobile: senseactAppStates': { command: 'mobileSenseactAppStates' },
    'mobile: senseactFaultLog': { command: 'mobileSenseactFaultLog' },
    'mobile: senseactGroundTruth': { command: 'mobileSenseactGroundTruth' },
  } as const;

  static newMethodMap = {
    '/session/:sessionId/appium/device/current_package': { GET: { command: 'getCurrentPackage' } },
    '/session/:sessionId/appium/device/current_activity': { GET: { command: 'getCurrentActivity' } },
  } as const;

  private simulator: Simulator | undefined;
  /** The last page source pulled, while no action has happened since (element commands reuse it). */
  private sourceXml: string | undefined;
  /** `sourceXml` parsed, made only when an element command needs it. */
  private sourceDocument: SourceDocument | undefined;
  private readonly elements = new ElementRegistry();
  private readonly stats = new CommandStats();

  constructor(...args: ConstructorParameters<typeof BaseDriver>) {
    super(...args);
    this.desiredCapConstraints = simCapConstraints;
    this.locatorStrategies = [...simLocatorStrategies];
  }

  override async executeCommand<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
    const start = performance.now();
    try {
      return await super.executeCommand<T>(command, ...args);
    } finally {
      const name = command === 'execute' && typeof args[0] === 'string' ? args[0] : command;
      this.stats.record(name, performance.now() - start);
    }
  }

  /**
   * Creates the session and its simulator. Like UiAutomator2, the returned capabilities
   * also tell the screen (`deviceScreenSize` `WxH`, `deviceScreenDensity` dpi).
   */
  override async createSession(...args: Parameters<BaseDriver<typeof simCapConstraints>['createSession']>): Promise<DefaultCreateSessionResult<typeof simCapConstraints>> {
    const created = await super.createSession(...args);
    try {
      this.startSimulator();
    } catch (error) {
      await super.deleteSession();
      throw new errors.SessionNotCreatedError(`The SenseAct simulator did not start: ${messageOf(error)}`);
    }
    const { width, height, density } = this.sim().screen;
    Object.assign(created[1], { deviceName: 'senseact-sim', deviceScreenSize: `${width}x${height}`, deviceScreenDensity: density });
    return created;
  }

  override async deleteSession(sessionId?: string | null): Promise<void> {
    this.simulator = undefined;
    this.sourceXml = undefined;
    this.sourceDocument = undefined;
    this.elements.clear();
    await super.deleteSession(sessionId);
  }

  // --- source, screenshot, window -------------------------------------------------------

  /** Always a fresh pull: one observation of the simulator (its clock and slow settles advance). */
  override async getPageSource(): Promise<string> {
    return this.pullSource();
  }

  async getScreenshot(): Promise<string> {
    const png = this.sim().screenshotPng();
    return Buffer.from(png).toString('base64');
  }

  async getWindowRect(): Promise<{ x: number; y: number; width: number; height: number }> {
    const { width, height } = this.sim().screen;
    return { x: 0, y: 0, width, height };
  }

  async getCurrentPackage(): Promise<string> {
    return this.sim().currentPackage();
  }

  async getCurrentActivity(): Promise<string> {
    return this.sim().currentActivity();
  }

  // --- elements -------------------------------------------------------------------------

  override async findElOrEls(strategy: string, selector: string, mult: true, context?: string): Promise<W3cElement[]>;
  override async findElOrEls(strategy: string, selector: string, mult: false, context?: string): Promise<W3cElement>;
  override async findElOrEls(strategy: string, selector: string, mult: boolean, context?: string): Promise<W3cElement[] | W3cElement> {
    const deadline = Date.now() + this.implicitWaitMs;
    for (let poll = 0; ; poll++) {
      // Waiting only helps if the screen is pulled again: each pull lets simulated time pass.
      if (poll > 0) this.pullSource();
      const document = this.currentSource();
      const scope = context === undefined ? undefined : this.resolveElement(context, document);
      let found: Element[];
      try {
        found = document.find(strategy as SimLocatorStrategy, selector, scope);
      } catch (error) {
        if (error instanceof InvalidSelectorError) throw new errors.InvalidSelectorError(error.message);
        throw error;
      }
      if (found.length > 0 || Date.now() >= deadline) {
        const wrapped = found.map((element) => wrapElement(this.elements.register(document, element)));
        if (mult) return wrapped;
        const first = wrapped[0];
        if (!first) throw new errors.NoSuchElementError(`No element matches ${strategy} '${selector}' on the simulated screen.`);
        return first;
      }
      await this.pause(implicitPollMs);
    }
  }

  async click(elementId: string): Promise<void> {
    const [x, y] = this.elementCenter(elementId, this.currentSource());
    this.perform(() => this.sim().tap(x, y));
  }

  async setValue(text: string | string[], elementId: string): Promise<void> {
    const focus = this.focusTap(elementId);
    const value = Array.isArray(text) ? text.join('') : text;
    this.perform(() => {
      focus();
      this.sim().clearText();
      this.sim().typeText(value);
    });
  }

  async clear(elementId: string): Promise<void> {
    const focus = this.focusTap(elementId);
    this.perform(() => {
      focus();
      this.sim().clearText();
    });
  }

  /**
   * What focuses a field before its text is set: a tap on it, or nothing when it has the
   * focus already. UiAutomator2 sets text without touching the screen; tapping a focused
   * field anyway would be one more tap than the same clear in-process (SimDevice), and so
   * one more draw from the fault streams: faults behind Appium would drift from in-process.
   */
  private focusTap(elementId: string): () => void {
    const element = this.resolveElement(elementId, this.currentSource());
    if (element.getAttribute('focused') === 'true') return () => undefined;
    const [x, y] = this.elementCenter(elementId, this.currentSource());
    return () => this.sim().tap(x, y);
  }

  async getText(elementId: string): Promise<string> {
    return this.resolveElement(elementId, this.currentSource()).getAttribute('text') ?? '';
  }

  async getName(elementId: string): Promise<string> {
    return this.resolveElement(elementId, this.currentSource()).getAttribute('class') ?? '';
  }

  /** UiAutomator2 attribute names, plus their camelCase aliases (`contentDescription`, `resourceId`, `className`). */
  async getAttribute(name: string, elementId: string): Promise<string | null> {
    const element = this.resolveElement(elementId, this.currentSource());
    const aliases: Record<string, string> = { contentDescription: 'content-desc', 'content-description': 'content-desc', resourceId: 'resource-id', className: 'class', name: 'content-desc', longClickable: 'long-clickable' };
    const attribute = aliases[name] ?? name;
    return element.hasAttribute(attribute) ? element.getAttribute(attribute) : null;
  }

  async getElementRect(elementId: string): Promise<{ x: number; y: number; width: number; height: number }> {
    const element = this.resolveElement(elementId, this.currentSource());
    const bounds = elementBounds(element);
    if (!bounds) throw new errors.InvalidElementStateError('The element has no bounds in the page source.');
    const [left, top, right, bottom] = bounds;
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  async elementDisplayed(elementId: string): Promise<boolean> {
    return this.resolveElement(elementId, this.currentSource()).getAttribute('displayed') !== 'false';
  }

  async elementEnabled(elementId: string): Promise<boolean> {
    return this.resolveElement(elementId, this.currentSource()).getAttribute('enabled') === 'true';
  }

  async elementSelected(elementId: string): Promise<boolean> {
    const element = this.resolveElement(elementId, this.currentSource());
    return element.getAttribute('selected') === 'true' || element.getAttribute('checked') === 'true';
  }

  // --- gestures and keys ----------------------------------------------------------------

  async performActions(actions: unknown): Promise<void> {
    let gestures: SimGesture[];
    try {
      gestures = gesturesFromActions(actions, { elementCenter: (id) => this.elementCenter(id, this.currentSource()) });
    } catch (error) {
      if (error instanceof ActionsError) throw new errors.InvalidArgumentError(error.message);
      throw error;
    }
    this.perform(() => {
      for (const gesture of gestures) this.runGesture(gesture);
    });
  }

  async releaseActions(): Promise<void> {
    // Every gesture is complete when performActions returns: nothing is left pressed.
  }

  async back(): Promise<void> {
    this.perform(() => this.sim().pressKey('back'));
  }

  async hideKeyboard(): Promise<boolean> {
    const shown = this.sim().isKeyboardShown();
    this.perform(() => this.sim().hideKeyboard());
    return shown;
  }

  async isKeyboardShown(): Promise<boolean> {
    return this.sim().isKeyboardShown();
  }

  async activateApp(appId: string): Promise<void> {
    this.perform(() => this.sim().launchApp(appId));
  }

  /** Force-stops the app; true when it was installed (UiAutomator2 answers whether it was stopped). */
  async terminateApp(appId: string): Promise<boolean> {
    this.perform(() => this.sim().terminateApp(appId));
    return true;
  }

  /**
   * Android app states: 4 running in foreground, 1 otherwise. The simulator does not
   * tell whether a background app still has a task, so 3 (background) is never reported.
   */
  async queryAppState(appId: string): Promise<number> {
    if (!this.sim().installedApps().some((app) => app.packageName === appId)) return 0;
    return this.sim().currentPackage() === appId ? 4 : 1;
  }

  async isAppInstalled(appId: string): Promise<boolean> {
    return this.sim().installedApps().some((app) => app.packageName === appId);
  }

  /**
   * `mobile: shell`, as far as the simulator has a shell: behind the insecure feature
   * `adb_shell` like UiAutomator2's, it runs `pm clear <package>` (see
   * `Simulator.clearAppData`), `pm path <package>`, `pm list packages` and `dumpsys activity
   * activities` (the simulator's tasks, in the device's layout: `Simulator.dumpsysActivities`);
   * any other command is refused with the list, never answered with made-up output.
   */
  async mobileShell(command: string, args?: unknown): Promise<string> {
    this.assertFeatureEnabled('adb_shell');
    const words = [String(command), ...(Array.isArray(args) ? args.map(String) : typeof args === 'string' ? [args] : [])].join(' ').trim().split(/\s+/);
    const [program, verb, target] = words;
    const installed = (name: string | undefined): boolean => this.sim().installedApps().some((app) => app.packageName === name);
    if (program === 'pm' && verb === 'clear' && target !== undefined && words.length === 3) {
      if (!installed(target)) throw new errors.UnknownError(`Error: java.lang.SecurityException: Package ${target} not found (simulated 'pm clear')`);
      this.perform(() => this.sim().clearAppData(target));
      return 'Success\n';
    }
    if (program === 'pm' && verb === 'path' && target !== undefined && words.length === 3) {
      if (!installed(target)) throw new errors.UnknownError(`'pm path ${target}' exited with code 1 (the simulator has no such package)`);
      return `package:/data/app/${target}/base.apk\n`;
    }
    if (program === 'pm' && verb === 'list' && target === 'packages' && words.length === 3) {
      return this.sim().installedApps().map((app) => `package:${app.packageName}\n`).join('');
    }
    if (program === 'dumpsys' && verb === 'activity' && target === 'activities' && words.length === 3) return this.sim().dumpsysActivities();
    throw new errors.NotImplementedError(`The SenseAct simulator's shell runs only 'pm clear <package>', 'pm path <package>', 'pm list packages' and 'dumpsys activity activities'; got '${words.join(' ')}'.`);
  }

  /**
   * `mobile: execEmuConsoleCommand`, behind the insecure feature `emulator_console` like
   * UiAutomator2's. The simulator keeps named snapshots for as long as the server runs
   * (an emulator keeps them on disk): `avd snapshot save <name>` records every app's data
   * and the permissions, `avd snapshot load <name>` restarts the session's simulator with
   * them (the launcher in front, no back stacks: a simulated snapshot keeps data, not
   * screens), `avd snapshot list` names them.
   */
  async mobileExecEmuConsoleCommand(command: string): Promise<string> {
    this.assertFeatureEnabled('emulator_console');
    const words = String(command).trim().split(/\s+/);
    const [avd, snapshot, verb, name] = words;
    if (avd !== 'avd' || snapshot !== 'snapshot') throw new errors.NotImplementedError(`The SenseAct simulator's emulator console runs only 'avd snapshot save|load <name>' and 'avd snapshot list'; got '${words.join(' ')}'.`);
    if (verb === 'list' && words.length === 3) return `${[...simSnapshots.keys()].join('\n')}\nOK`;
    if (name === undefined || words.length !== 4 || (verb !== 'save' && verb !== 'load')) throw new errors.InvalidArgumentError(`expected 'avd snapshot save <name>' or 'avd snapshot load <name>'; got '${words.join(' ')}'.`);
    if (verb === 'save') {
      simSnapshots.set(name, this.sim().state());
      return 'OK';
    }
    const saved = simSnapshots.get(name);
    if (saved === undefined) throw new errors.UnknownError(`KO: snapshot '${name}' does not exist on the simulated emulator (saved: ${[...simSnapshots.keys()].join(', ') || 'none'}); save it first with 'avd snapshot save ${name}'.`);
    this.startSimulator(structuredClone(saved));
    this.elements.clear();
    return 'OK';
  }

  async execute(script: string, args: unknown[]): Promise<unknown> {
    if (!script.trim().startsWith('mobile:')) {
      throw new errors.NotImplementedError(`The SenseAct simulator runs no scripts; only 'mobile:' methods are supported (got '${script}').`);
    }
    return await this.executeMethod(script.trim().replace(/^mobile:\s*/, 'mobile: '), args as [Record<string, unknown>]);
  }

  // --- mobile: methods ------------------------------------------------------------------

  async mobileClickGesture(elementId?: string, x?: number, y?: number): Promise<void> {
    const [px, py] = await this.pointOf(elementId, x, y, 'clickGesture');
    this.perform(() => this.sim().tap(px, py));
  }

  async mobileLongClickGesture(elementId?: string, x?: number, y?: number, duration?: number): Promise<void> {
    const [px, py] = await this.pointOf(elementId, x, y, 'longClickGesture');
    this.perform(() => this.sim().longPress(px, py, duration ?? 500));
  }

  /**
   * Scrolls the area (an element or left/top/width/height) so that content further in
   * `direction` comes into view; resolves whether the content moved (UiAutomator2
   * answers whether more scrolling is possible: when nothing moved, nothing is left).
   * The comparison uses the rendered screen, which does not count as an observation.
   */
  async mobileScrollGesture(direction: string, elementId?: string, left?: number, top?: number, width?: number, height?: number, percent?: number, speed?: number): Promise<boolean> {
    const area = await this.areaOf(elementId, left, top, width, height, 'scrollGesture');
    const fingerDirection = opposite(parseDirection(direction));
    const before = this.sim().screenshotSvg();
    this.perform(() => this.swipeInArea(area, fingerDirection, percent ?? 0.5, speed));
    return this.sim().screenshotSvg() !== before;
  }

  async mobileSwipeGesture(direction: string, elementId?: string, left?: number, top?: number, width?: number, height?: number, percent?: number, speed?: number): Promise<void> {
    const area = await this.areaOf(elementId, left, top, width, height, 'swipeGesture');
    this.perform(() => this.swipeInArea(area, parseDirection(direction), percent ?? 0.5, speed));
  }

  async mobileType(text: string): Promise<void> {
    this.perform(() => this.sim().typeText(String(text)));
  }

  async mobilePressKey(keycode: number): Promise<void> {
    const key = keyCodes[Number(keycode)];
    if (!key) throw new errors.InvalidArgumentError(`The simulator supports key codes 3 (HOME), 4 (BACK) and 66 (ENTER); got ${String(keycode)}.`);
    this.perform(() => this.sim().pressKey(key));
  }

  /** Accepts `intent`/`component` as `package/activity` (`.Name` is relative to the package) or `appPackage` + `appActivity`. */
  async mobileStartActivity(intent?: string, component?: string, appPackage?: string, appActivity?: string, packageName?: string, activity?: string): Promise<void> {
    const spec = component ?? intent;
    let pkg = appPackage ?? packageName;
    let act = appActivity ?? activity;
    if (spec !== undefined) {
      const [specPackage, specActivity] = spec.split('/');
      pkg = specPackage;
      act = specActivity;
    }
    if (!pkg) throw new errors.InvalidArgumentError("startActivity needs 'component' (package/activity) or 'appPackage'.");
    const resolvedActivity = act !== undefined && act.startsWith('.') ? `${pkg}${act}` : act;
    const target = pkg;
    this.perform(() => this.sim().launchApp(target, resolvedActivity));
  }

  async mobileSenseactStats(reset?: boolean): Promise<CommandStatsSnapshot> {
    const snapshot = this.stats.snapshot();
    if (reset === true) this.stats.reset();
    return snapshot;
  }

  async mobileSenseactAdvanceTime(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new errors.InvalidArgumentError(`'ms' must be a non-negative number; got ${String(ms)}.`);
    this.perform(() => this.sim().advanceTime(ms));
  }

  async mobileSenseactState(): Promise<unknown> {
    return this.sim().state();
  }

  /** Every simulated app's data by package name, so a client needs no table of the simulator's apps. */
  async mobileSenseactAppStates(): Promise<Record<string, unknown>> {
    const state = this.sim().state();
    return Object.fromEntries(simApps.map(({ key, app }) => [app.packageName, state[key]]));
  }

  async mobileSenseactFaultLog(): Promise<unknown> {
    return this.sim().faultLog();
  }

  /** The screen without label-stripping faults, with where it is: the oracle policy's eyes. */
  async mobileSenseactGroundTruth(): Promise<{ xml: string; packageName: string; activity: string }> {
    const sim = this.sim();
    return { xml: sim.groundTruthSource(), packageName: sim.currentPackage(), activity: sim.currentActivity() };
  }

  // --- internals ------------------------------------------------------------------------

  /** Starts the session's simulator from its capabilities; `state` (a loaded snapshot) replaces the seed data and the start app. */
  private startSimulator(state?: unknown): void {
    const parsed = senseactCapsSchema.safeParse(this.caps);
    if (!parsed.success) {
      throw new Error(`invalid senseact: capabilities: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    }
    const caps = parsed.data;
    const options = {
      ...(caps['senseact:seed'] === undefined ? {} : { seed: caps['senseact:seed'] }),
      ...(caps['senseact:faults'] === undefined ? {} : { faults: caps['senseact:faults'] }),
      ...(state === undefined && caps['senseact:initialState'] !== undefined ? { initialState: caps['senseact:initialState'] } : {}),
      ...(state === undefined ? {} : { initialState: state }),
      ...(caps['senseact:screen'] === undefined ? {} : { screen: caps['senseact:screen'] }),
      ...(caps['senseact:apps'] === undefined ? {} : { apps: caps['senseact:apps'] }),
      ...(state !== undefined || this.caps.appPackage === undefined || this.caps.appActivity !== undefined ? {} : { startPackage: this.caps.appPackage }),
    } as SimulatorOptions;
    const simulator = new Simulator(options);
    if (state === undefined && this.caps.appPackage !== undefined && this.caps.appActivity !== undefined) {
      simulator.launchApp(this.caps.appPackage, this.caps.appActivity);
    }
    this.simulator = simulator;
    this.sourceXml = undefined;
    this.sourceDocument = undefined;
  }

  private sim(): Simulator {
    if (!this.simulator) throw new errors.NoSuchDriverError('The simulator session has ended.');
    return this.simulator;
  }

  /** One observation of the simulator; its XML becomes the current source. */
  private pullSource(): string {
    this.sourceXml = this.sim().pageSource('appium-uia2');
    this.sourceDocument = undefined;
    return this.sourceXml;
  }

  /** The source element commands work on: the last pull while nothing has happened since, else a new pull. */
  private currentSource(): SourceDocument {
    const xml = this.sourceXml ?? this.pullSource();
    this.sourceDocument ??= new SourceDocument(xml);
    return this.sourceDocument;
  }

  private resolveElement(elementId: string, document: SourceDocument): Element {
    const resolution = this.elements.resolve(elementId, document);
    switch (resolution.status) {
      case 'found':
        return resolution.element;
      case 'unknown':
        throw new errors.NoSuchElementError(`Element '${elementId}' was never returned by this session: find it again.`);
      case 'stale':
        throw new errors.StaleElementReferenceError(`Element '${elementId}' is no longer on the simulated screen: find it again.`);
    }
  }

  private elementCenter(elementId: string, document: SourceDocument): Point {
    const bounds = elementBounds(this.resolveElement(elementId, document));
    if (!bounds) throw new errors.InvalidElementStateError(`Element '${elementId}' has no bounds in the page source.`);
    return [Math.floor((bounds[0] + bounds[2]) / 2), Math.floor((bounds[1] + bounds[3]) / 2)];
  }

  private async pointOf(elementId: string | undefined, x: number | undefined, y: number | undefined, method: string): Promise<Point> {
    if (elementId !== undefined) {
      const [centerX, centerY] = this.elementCenter(elementId, this.currentSource());
      return [centerX + (x ?? 0), centerY + (y ?? 0)];
    }
    if (typeof x !== 'number' || typeof y !== 'number') throw new errors.InvalidArgumentError(`mobile: ${method} needs 'elementId' or both 'x' and 'y'.`);
    return [Math.round(x), Math.round(y)];
  }

  private async areaOf(elementId: string | undefined, left: number | undefined, top: number | undefined, width: number | undefined, height: number | undefined, method: string): Promise<[number, number, number, number]> {
    if (elementId !== undefined) {
      const bounds = elementBounds(this.resolveElement(elementId, this.currentSource()));
      if (!bounds) throw new errors.InvalidElementStateError(`Element '${elementId}' has no bounds in the page source.`);
      return bounds;
    }
    if ([left, top, width, height].some((value) => typeof value !== 'number')) {
      throw new errors.InvalidArgumentError(`mobile: ${method} needs 'elementId' or all of 'left', 'top', 'width', 'height'.`);
    }
    const l = left ?? 0;
    const t = top ?? 0;
    return [l, t, l + (width ?? 0), t + (height ?? 0)];
  }

  /** A finger swipe across `percent` of the area, centred, moving in `direction`. */
  private swipeInArea(area: readonly [number, number, number, number], direction: Direction, percent: number, speed: number | undefined): void {
    if (!(percent > 0 && percent <= 1)) throw new errors.InvalidArgumentError(`'percent' must be in (0, 1]; got ${String(percent)}.`);
    // Right and bottom are exclusive: the same geometry as the device layer's scrollSwipe,
    // so a scroll moves the content by the same pixels in-process and through Appium.
    const [left, top, right, bottom] = area;
    const centerX = Math.floor((left + right - 1) / 2);
    const centerY = Math.floor((top + bottom - 1) / 2);
    const halfX = Math.floor(((right - left - 1) * percent) / 2);
    const halfY = Math.floor(((bottom - top - 1) * percent) / 2);
    const [from, to]: [Point, Point] =
      direction === 'up' ? [[centerX, centerY + halfY], [centerX, centerY - halfY]]
      : direction === 'down' ? [[centerX, centerY - halfY], [centerX, centerY + halfY]]
      : direction === 'left' ? [[centerX + halfX, centerY], [centerX - halfX, centerY]]
      : [[centerX - halfX, centerY], [centerX + halfX, centerY]];
    const distance = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const durationMs = speed !== undefined && speed > 0 ? Math.max(1, Math.round((distance / speed) * 1000)) : defaultGestureMs;
    this.sim().swipe(from[0], from[1], to[0], to[1], durationMs);
  }

  private runGesture(gesture: SimGesture): void {
    const sim = this.sim();
    switch (gesture.kind) {
      case 'tap':
        sim.tap(gesture.x, gesture.y);
        return;
      case 'long-press':
        sim.longPress(gesture.x, gesture.y, gesture.durationMs);
        return;
      case 'swipe':
        sim.swipe(gesture.from[0], gesture.from[1], gesture.to[0], gesture.to[1], gesture.durationMs);
        return;
      case 'text':
        sim.typeText(gesture.text);
        return;
      case 'key':
        sim.pressKey(gesture.key);
        return;
      case 'pause':
        sim.advanceTime(gesture.durationMs);
        return;
    }
  }

  /** Runs a simulator action; misuse the simulator reports becomes a W3C `invalid argument`. */
  private perform(action: () => void): void {
    try {
      action();
    } catch (error) {
      if (SimulatorError.isInstance(error)) throw new errors.InvalidArgumentError(error.message);
      throw error;
    }
    this.sourceXml = undefined;
    this.sourceDocument = undefined;
  }

  private async pause(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

type Direction = 'up' | 'down' | 'left' | 'right';

function parseDirection(direction: string): Direction {
  const lower = direction.toLowerCase();
  if (lower === 'up' || lower === 'down' || lower === 'left' || lower === 'right') return lower;
  throw new errors.InvalidArgumentError(`'direction' must be up, down, left or right; got '${direction}'.`);
}

function opposite(direction: Direction): Direction {
  switch (direction) {
    case 'up':
      return 'down';
    case 'down':
      return 'up';
    case 'left':
      return 'right';
    case 'right':
      return 'left';
  }
}

function wrapElement(id: string): W3cElement {
  return { [W3C_ELEMENT_KEY]: id, ELEMENT: id } as W3cElement;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
