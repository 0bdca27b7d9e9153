import { launcherApp, launcherPackage } from './apps/launcher-app.js';
import { FaultInjector, relabelled, resolveFaultConfig, type FaultConfig, type FaultEvent, type FaultProfileName } from './fault-injector.js';
import { layoutWindow, measureHeight, type LaidNode, type PixelRect, type ScrollExtents } from './layout-window.js';
import { renderPageSource, type PageSourceDialect } from './render-page-source.js';
import { renderScreenshotPng, renderScreenshotSvg } from './render-screenshot.js';
import { eraseApp, type ActivityContext, type ActivityDef, type AnySimApp, type Overlay, type Screen } from './sim-app.js';
import { defaultSystemState, simApps, simSeedDataSchema, type SimAppKey, type SimSeedData, type SimSeedDataInput } from './sim-seed-data.js';
import { SimulatorError } from './simulator-error.js';
import {
  interstitialDialog,
  keyboardDp,
  keyboardPackage,
  navBarDp,
  navigationBar,
  permissionControllerPackage,
  permissionDialog,
  softKeyboard,
  statusBar,
  statusBarDp,
  systemUiPackage,
  toastWidget,
} from './system-ui.js';
import { frame, view, type Widget } from './widget.js';

/** Virtual milliseconds one action (tap, swipe, key, typing, launch) takes. */
export const actionMs = 600;
/** Virtual milliseconds one `pageSource` observation takes. */
export const observationMs = 200;
/** How long a toast stays on screen, in virtual ms. */
export const toastMs = 2000;
/** Default long-press duration (ms). */
export const longPressMs = 800;
/** Simulated wall clock at virtual time 0 (UTC). */
export const defaultClockStart = '2024-05-01T09:00:00Z';

/** Constructor options; every field is optional. */
export interface SimulatorOptions {
  /** Seeds faults and anything random (default 1). */
  readonly seed?: number | undefined;
  /** Screen in pixels and dpi (default 1080×2400 at 420 dpi, a Pixel 7 class phone). */
  readonly screen?: { readonly width: number; readonly height: number; readonly density: number } | undefined;
  /** Installed app packages (default all). The launcher is always present. */
  readonly apps?: readonly string[] | undefined;
  /** Fault rules or a profile name (`none` default, `standard`). */
  readonly faults?: FaultConfig | FaultProfileName | undefined;
  /** Per-app seed data; each key given replaces that app's default state. */
  readonly initialState?: Partial<SimSeedDataInput> | undefined;
  /** Package to start in (default: the launcher home screen). */
  readonly startPackage?: string | undefined;
  /** Wall clock of the phone at virtual time 0, ISO 8601 (default 2024-05-01T09:00:00Z). */
  readonly clockStart?: string | undefined;
  /**
   * Empty text fields: `'empty'` (default) reports `text=""` with the hint in `hint`;
   * `'hint'` reports the hint as `text` as well, which is what the real dumps
   * (tests/fixtures/dump-corpus) show for every empty field (Android exposes the hint as
   * accessibility text). Either way `showing-hint="true"` in the Appium dialect.
   */
  readonly emptyFieldText?: 'empty' | 'hint' | undefined;
  /**
   * Which windows `pageSource` lists: `'all'` (default: system bars, keyboard, toast,
   * dialogs and the app, as a multi-window dump shows them) or `'active'` (only the
   * window with input focus — the topmost dialog/sheet/prompt, else the app — which is
   * what Appium's default page source and many real `uiautomator dump`s contain).
   */
  readonly pageSourceWindows?: 'all' | 'active' | undefined;
}

/** One installed app as `installedApps()` lists it. */
export interface InstalledApp {
  readonly packageName: string;
  readonly label: string;
  /** Full class name of the launch activity. */
  readonly launchActivity: string;
}

/** Screen size in pixels and density in dpi. */
export interface SimScreen {
  readonly width: number;
  readonly height: number;
  readonly density: number;
}

type Key = 'back' | 'home' | 'enter';

interface ActivityInstance {
  readonly serial: number;
  readonly def: ActivityDef<unknown>;
  readonly ui: unknown;
  readonly scroll: Map<string, number>;
  focusedField: string | undefined;
  keyboard: boolean;
}

type WindowKind = 'app' | 'dialog' | 'popup' | 'sheet' | 'permission' | 'interstitial' | 'keyboard' | 'toast' | 'status-bar' | 'nav-bar';

interface WindowFrame {
  readonly kind: WindowKind;
  readonly root: LaidNode;
  readonly touchable: boolean;
  /** Taps outside go nowhere (modal) or call this (dismissable). */
  readonly modal: boolean;
  readonly onOutside?: (() => void) | undefined;
  readonly instance: ActivityInstance | undefined;
}

interface Frame {
  /** Topmost first, in the order the XML lists them. */
  readonly windows: readonly WindowFrame[];
  readonly extents: Map<ActivityInstance, ScrollExtents>;
}

interface PermissionPrompt {
  readonly pkg: string;
  readonly permission: string;
  readonly message: string;
}

const knownKeys: readonly Key[] = ['back', 'home', 'enter'];

/**
 * A simulated Android phone, in process and deterministic.
 *
 * ## What is on it
 * - Launcher `com.google.android.apps.nexuslauncher` (`.NexusLauncherActivity`): one icon per
 *   installed app (TextView, text and content-desc = label); tap starts the app.
 * - Clock `com.google.android.deskclock`, Contacts `com.google.android.contacts`, Settings
 *   `com.android.settings`, Notes `com.simplemobiletools.notes.pro` — see each app file's
 *   TSDoc for screens and its zod schema (`clockStateSchema`, `contactsStateSchema`,
 *   `settingsStateSchema`, `notesStateSchema`) for the state `appState(pkg)` returns:
 *   `{ alarms: [{ id, hour, minute, label, enabled, days, vibrate, ringtone }], worldClocks,
 *   timer, stopwatch, bedtime }`, `{ contacts: [{ id, firstName, lastName, company, phones,
 *   emails, website, birthday, starred, labels }] }`, `{ network: { wifi, airplaneMode,
 *   bluetooth, … }, display: { brightness, darkTheme, … }, sound, battery, apps, about, … }`,
 *   `{ notes: [{ id, title, type, text, items }] }`.
 * - System windows: status bar and three-button navigation bar (`com.android.systemui`;
 *   Back/Home/Overview are tappable), the soft keyboard
 *   (`com.google.android.inputmethod.latin`, shown while a field is focused; it shrinks
 *   the app window; its keys type), toasts (`android.widget.Toast`, ~2 s of virtual time),
 *   app dialogs, popup menus and bottom sheets (each its own window), and runtime
 *   permission dialogs (`com.google.android.permissioncontroller`, Allow / Don't allow),
 *   shown on launch when `initialState.system.permissions["<pkg>/<permission>"]` is `ask`.
 *
 * ## What the agent gets
 * What a phone gives: `pageSource()` XML in the Appium UiAutomator2 or `uiautomator dump`
 * dialect (windows listed topmost first — status bar, navigation bar, toast, keyboard,
 * dialogs, then the app — every window root with `index="0"`), wireframe PNG/SVG
 * screenshots, and the current package/activity. Scroll containers expose only their
 * on-screen children, with bounds clipped to the viewport. Coordinates are screen pixels.
 * `currentActivity()` answers as Appium does: `.Name` when the activity class lives under
 * the app's package (`.Settings`, `.activities.MainActivity`), else the full class name
 * (`com.android.deskclock.DeskClock`); `currentActivityClass()` always gives the full one.
 *
 * ## Time and determinism
 * Every action advances a step counter and the virtual clock by `actionMs` (600 ms), every
 * `pageSource` by `observationMs` (200 ms); `advanceTime` lets time pass without input.
 * The phone's wall clock starts at `clockStart` (default 2024-05-01 09:00 UTC). Faults
 * (`dropped-tap`, `delayed-effect`, `interstitial`, `icon-only`, `shuffle`, `slow-settle`, `relabel`, `swap-labels`)
 * draw from seeded streams and are listed by `faultLog()`. Same seed + same calls →
 * byte-identical XML and screenshots. Taps hit what the last frame showed.
 *
 * ## Example
 * ```ts
 * const sim = new Simulator({ seed: 1, startPackage: 'com.google.android.deskclock' });
 * const xml = sim.pageSource('uiautomator-dump');   // find "Add alarm", tap its centre…
 * sim.tap(540, 1937);
 * (sim.appState('com.google.android.deskclock') as ClockState).alarms;
 * ```
 *
 * Misuse (unknown package or activity, a point off screen, typing with no focused field,
 * bad options or seed data) throws `SimulatorError`.
 */
export class Simulator {
  /** Screen size in pixels and density. */
  readonly screen: SimScreen;
  private readonly scale: number;
  private readonly seed: number;
  private readonly apps = new Map<string, AnySimApp>();
  private readonly appKeys = new Map<string, SimAppKey>();
  private readonly states = new Map<string, unknown>();
  private system: SimSeedData['system'];
  private readonly tasks = new Map<string, ActivityInstance[]>();
  private foreground: string = launcherPackage;
  private toast: { text: string; pkg: string; until: number } | undefined;
  private readonly permissionQueue: PermissionPrompt[] = [];
  private interstitial: { kind: 'rate' | 'update'; pkg: string } | undefined;
  private readonly faults: FaultInjector;
  private readonly pending: { due: number; run: () => void; detail: string }[] = [];
  private settleRemaining = 0;
  private readonly loggedTargets = new Set<string>();
  private steps = 0;
  private observations = 0;
  private virtualTime = 0;
  private serial = 0;
  private readonly clockStart: number;
  private readonly hintAsText: boolean;
  private readonly activeWindowOnly: boolean;
  private frameCache: Frame | undefined;

  constructor(options: SimulatorOptions = {}) {
    this.seed = options.seed ?? 1;
    const screen = options.screen ?? { width: 1080, height: 2400, density: 420 };
    if (!(screen.width >= 320 && screen.height >= 480 && screen.density >= 120)) {
      throw new SimulatorError({ message: `Simulator option screen ${JSON.stringify(screen)} is too small; use at least 320×480 px and 120 dpi.` });
    }
    this.screen = { width: screen.width, height: screen.height, density: screen.density };
    this.scale = screen.density / 160;
    const clockStart = Date.parse(options.clockStart ?? defaultClockStart);
    if (Number.isNaN(clockStart)) throw new SimulatorError({ message: `Simulator option clockStart "${options.clockStart}" is not an ISO 8601 date.` });
    this.clockStart = clockStart;
    if (options.emptyFieldText !== undefined && options.emptyFieldText !== 'empty' && options.emptyFieldText !== 'hint') {
      throw new SimulatorError({ message: `Simulator option emptyFieldText "${String(options.emptyFieldText)}" is not 'empty' or 'hint'.` });
    }
    this.hintAsText = options.emptyFieldText === 'hint';
    if (options.pageSourceWindows !== undefined && options.pageSourceWindows !== 'all' && options.pageSourceWindows !== 'active') {
      throw new SimulatorError({ message: `Simulator option pageSourceWindows "${String(options.pageSourceWindows)}" is not 'all' or 'active'.` });
    }
    this.activeWindowOnly = options.pageSourceWindows === 'active';
    this.faults = new FaultInjector(resolveFaultConfig(options.faults), this.seed);

    const wanted = options.apps ?? simApps.map((entry) => entry.app.packageName);
    for (const pkg of wanted) {
      const entry = simApps.find((e) => e.app.packageName === pkg);
      if (entry === undefined) {
        throw new SimulatorError({ message: `Simulator option apps: unknown package "${pkg}"; available: ${simApps.map((e) => e.app.packageName).join(', ')}.` });
      }
      this.apps.set(pkg, entry.app);
      this.appKeys.set(pkg, entry.key);
    }
    this.apps.set(launcherPackage, eraseApp(launcherApp));

    const seedInput: Record<string, unknown> = { system: defaultSystemState() };
    for (const { key, app } of simApps) seedInput[key] = app.defaultState();
    for (const [key, value] of Object.entries(options.initialState ?? {})) {
      if (value !== undefined) seedInput[key] = key === 'system' ? { ...defaultSystemState(), ...(value as object) } : value;
    }
    const parsed = simSeedDataSchema.strict().safeParse(seedInput);
    if (!parsed.success) {
      throw new SimulatorError({ message: `Simulator option initialState does not match SimSeedData: ${parsed.error.message}`, cause: parsed.error });
    }
    const seed = structuredClone(parsed.data);
    for (const { key, app } of simApps) this.states.set(app.packageName, seed[key]);
    this.states.set(launcherPackage, {});
    this.system = seed.system;

    this.tasks.set(launcherPackage, [this.newInstance(launcherApp.activities[0] as unknown as ActivityDef<unknown>, {})]);
    if (options.startPackage !== undefined && options.startPackage !== launcherPackage) this.startTask(options.startPackage, undefined);
  }

  // ---- observation -------------------------------------------------------------------

  /**
   * The UI hierarchy as XML in the given dialect. Counts as one observation: it advances
   * the step counter and virtual clock, and lets delayed effects and slow settles progress.
   */
  pageSource(dialect: PageSourceDialect = 'appium-uia2'): string {
    if (dialect !== 'appium-uia2' && dialect !== 'uiautomator-dump') {
      throw new SimulatorError({ message: `pageSource: unknown dialect "${String(dialect)}"; use 'appium-uia2' or 'uiautomator-dump'.` });
    }
    this.steps += 1;
    this.observations += 1;
    this.advanceClock(observationMs);
    this.runDueEffects();
    const frame = this.currentFrame();
    let roots = frame.windows.map((w) => w.root);
    if (this.activeWindowOnly) {
      const active = frame.windows.find((w) => w.kind === 'interstitial' || w.kind === 'permission' || w.kind === 'dialog' || w.kind === 'popup' || w.kind === 'sheet' || w.kind === 'app');
      roots = active === undefined ? [] : [active.root];
    }
    if (this.settleRemaining > 0) {
      roots = this.withSpinner(roots, this.settleRemaining);
      this.settleRemaining -= 1;
      this.frameCache = undefined;
    }
    return renderPageSource(roots, dialect, this.screen);
  }

  /** Package of the window the user is in (the foreground app, or the launcher). */
  currentPackage(): string {
    return this.foreground;
  }

  /** Foreground activity, Appium-style: `.Name` under the package, else the full class name. */
  currentActivity(): string {
    return shortActivityName(this.foreground, this.topInstance(this.foreground).def.name);
  }

  /** Full class name of the foreground activity. */
  currentActivityClass(): string {
    return this.topInstance(this.foreground).def.name;
  }

  /**
   * The foreground task's activities, top first, as component names (`package/.Name` under
   * the package, else `package/full.Name`), the way `dumpsys activity activities` and
   * DroidBot's `activity_stack` name them.
   */
  activityStack(): string[] {
    return [...(this.tasks.get(this.foreground) ?? [])].reverse().map((instance) => componentName(this.foreground, instance.def.name));
  }

  /**
   * What `dumpsys activity activities` prints, in the layout of Android 10 and later, for
   * the simulator's tasks: the foreground task first, each task's activities top first
   * (`* Hist #n: ActivityRecord{…}`). A task is numbered by its first activity's serial,
   * so its number stays while the task lives. Reading it is no observation: the clock does
   * not move.
   */
  dumpsysActivities(): string {
    const packages = [this.foreground, ...[...this.tasks.keys()].filter((pkg) => pkg !== this.foreground)];
    const lines = ['ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)', 'Display #0 (activities from top to bottom):'];
    for (const pkg of packages) {
      const stack = this.tasks.get(pkg) ?? [];
      const root = stack[0];
      if (root === undefined) continue;
      const record = (instance: ActivityInstance): string => `ActivityRecord{${(0x5a000 + instance.serial).toString(16)} u0 ${componentName(pkg, instance.def.name)} t${root.serial}}`;
      lines.push(`  * Task{${(0x7b000 + root.serial).toString(16)} #${root.serial} type=${pkg === launcherPackage ? 'home' : 'standard'} A=10${String(root.serial).padStart(3, '0')}:${pkg} U=0 visible=${pkg === this.foreground} mode=fullscreen translucent=false sz=${stack.length}}`);
      if (pkg === this.foreground) lines.push(`    mResumedActivity: ${record(stack.at(-1)!)}`);
      for (let index = stack.length - 1; index >= 0; index--) lines.push(`    * Hist #${index}: ${record(stack[index]!)}`);
    }
    return `${lines.join('\n')}\n`;
  }

  /** A wireframe PNG of the screen at its own pixel size (1080×2400 for the default screen), rendered only when asked for. */
  screenshotPng(): Uint8Array {
    return renderScreenshotPng(this.currentFrame().windows.map((w) => w.root), this.screen, this.screenshotOptions());
  }

  /** The same wireframe as SVG at full pixel coordinates (for reports). */
  screenshotSvg(): string {
    return renderScreenshotSvg(this.currentFrame().windows.map((w) => w.root), this.screen, this.screenshotOptions());
  }

  private screenshotOptions(): { dark: boolean; scrimBelow: number | undefined } {
    const settings = this.states.get('com.android.settings') as { display?: { darkTheme?: boolean } } | undefined;
    const windows = this.currentFrame().windows;
    // Dialogs and sheets dim what is below them; the lowest such window sets the scrim.
    let scrimBelow: number | undefined;
    windows.forEach((w, i) => {
      if (w.kind === 'dialog' || w.kind === 'sheet' || w.kind === 'permission' || w.kind === 'interstitial') scrimBelow = i;
    });
    return { dark: settings?.display?.darkTheme === true, scrimBelow };
  }

  /** False while a slow-settle fault still changes the hierarchy. */
  isSettled(): boolean {
    return this.settleRemaining === 0;
  }

  /** True while the soft keyboard is on screen. */
  isKeyboardShown(): boolean {
    const instance = this.topInstance(this.foreground);
    return instance.keyboard && instance.focusedField !== undefined;
  }

  // ---- actions -----------------------------------------------------------------------

  /** Taps at a screen pixel. Taps outside any control do nothing. */
  tap(x: number, y: number): void {
    this.checkPoint('tap', x, y);
    // Hit-test what is on screen now (the frame the caller last saw), then let time pass.
    const effect = this.hitEffect(x, y, 'tap');
    this.beginAction();
    if (this.faults.fires('dropped-tap', this.steps)) {
      this.faults.record('dropped-tap', this.steps, `tap (${x},${y}) dropped`);
      return;
    }
    if (effect === undefined) return;
    this.runEffect(effect.run, effect.detail, true);
    this.maybeInterstitial();
  }

  /** Presses and holds at a point (default 800 ms): fires the target's long-press handler. */
  longPress(x: number, y: number, durationMs: number = longPressMs): void {
    this.checkPoint('longPress', x, y);
    if (!(durationMs >= 0)) throw new SimulatorError({ message: `longPress: durationMs ${durationMs} must be ≥ 0.` });
    const effect = this.hitEffect(x, y, 'long');
    this.beginAction(Math.max(0, durationMs - actionMs));
    if (effect === undefined) return;
    this.runEffect(effect.run, effect.detail, true);
  }

  /**
   * Swipes from (x1,y1) to (x2,y2). Scrolls the innermost scroll container under the
   * start point by the vertical distance (content follows the finger: swiping up shows
   * what is below); on a slider it sets the value from x2.
   */
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs = 300): void {
    this.checkPoint('swipe', x1, y1);
    this.checkPoint('swipe', x2, y2);
    const frame = this.currentFrame();
    this.beginAction(Math.max(0, durationMs - actionMs));
    const window = this.touchWindow(frame, x1, y1);
    if (window === undefined || window.instance === undefined) return;
    const path = pathAt(window.root, x1, y1);
    const slider = [...path].reverse().find((n) => n.widget.slider !== undefined);
    if (slider?.widget.slider !== undefined) {
      const binding = slider.widget.slider;
      const value = sliderValue(slider, x2, binding.max);
      this.runEffect(() => binding.onChange(value), `slide to ${value}`, false);
      return;
    }
    const container = [...path].reverse().find((n) => n.widget.scroll !== undefined);
    if (container?.widget.scroll === undefined) return;
    const key = container.widget.scroll.key;
    const extent = frame.extents.get(window.instance)?.get(key);
    const max = extent?.max ?? 0;
    const current = window.instance.scroll.get(key) ?? 0;
    const next = Math.max(0, Math.min(max, current + (y1 - y2)));
    const instance = window.instance;
    this.runEffect(() => instance.scroll.set(key, next), `scroll ${key} to ${next}`, false);
  }

  /** Types into the focused field (appends). Throws when no field is focused. */
  typeText(text: string): void {
    const field = this.focusedField('typeText');
    this.beginAction();
    field.onChange(field.value + text);
    this.frameCache = undefined;
  }

  /** Empties the focused field. Throws when no field is focused. */
  clearText(): void {
    const field = this.focusedField('clearText');
    this.beginAction();
    field.onChange('');
    this.frameCache = undefined;
  }

  /** Presses a hardware/navigation key: `back`, `home` or `enter`. */
  pressKey(key: Key): void {
    if (!knownKeys.includes(key)) throw new SimulatorError({ message: `pressKey: unknown key "${String(key)}"; use 'back', 'home' or 'enter'.` });
    this.beginAction();
    switch (key) {
      case 'back':
        this.back();
        break;
      case 'home':
        this.home();
        break;
      case 'enter': {
        const field = this.findFocusedField();
        field?.onSubmit?.();
        break;
      }
    }
    this.frameCache = undefined;
  }

  /**
   * Starts an app. Without `activity`, resumes its task if it has one, else starts the
   * launch activity; with `activity` (full class name or `.Short`), starts that activity
   * in a fresh task. Throws for a package that is not installed.
   */
  launchApp(packageName: string, activity?: string): void {
    this.requireApp('launchApp', packageName);
    this.beginAction();
    if (packageName === launcherPackage) {
      this.home();
      return;
    }
    if (activity === undefined && this.tasks.has(packageName)) {
      this.foreground = packageName;
      return;
    }
    this.tasks.delete(packageName);
    this.startTask(packageName, activity);
    this.maybeInterstitial();
  }

  /** Force-stops an app: its task (back stack, dialogs) is gone; data stays. */
  terminateApp(packageName: string): void {
    this.requireApp('terminateApp', packageName);
    this.beginAction();
    if (packageName === launcherPackage) return;
    this.tasks.delete(packageName);
    if (this.interstitial?.pkg === packageName) this.interstitial = undefined;
    if (this.foreground === packageName) this.foreground = launcherPackage;
  }

  /**
   * `pm clear`, as the simulator does it: the app's data goes back to what a fresh
   * install has (its `defaultState()`), its task is gone, and its runtime permissions are
   * `ask` again (Android revokes them), so the next launch asks. Throws for an unknown package.
   */
  clearAppData(packageName: string): void {
    const app = this.requireApp('clearAppData', packageName);
    this.beginAction();
    if (packageName === launcherPackage) return;
    this.states.set(packageName, structuredClone(app.defaultState()));
    for (const prompt of app.launchPermissions ?? []) this.system.permissions[`${packageName}/${prompt.permission}`] = 'ask';
    this.tasks.delete(packageName);
    if (this.interstitial?.pkg === packageName) this.interstitial = undefined;
    if (this.foreground === packageName) this.foreground = launcherPackage;
  }

  /** Hides the soft keyboard (focus stays on the field). */
  hideKeyboard(): void {
    this.beginAction();
    this.topInstance(this.foreground).keyboard = false;
    this.frameCache = undefined;
  }

  /** Lets virtual time pass without any input (toasts expire, timers run). */
  advanceTime(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new SimulatorError({ message: `advanceTime: ms ${ms} must be a finite number ≥ 0.` });
    this.advanceClock(ms);
    this.frameCache = undefined;
  }

  // ---- state -------------------------------------------------------------------------

  /** One app's data (deep copy), shaped by that app's zod schema. Throws for unknown packages. */
  appState(packageName: string): unknown {
    this.requireApp('appState', packageName);
    return structuredClone(this.states.get(packageName));
  }

  /** Every app's data plus system state (deep copy). */
  state(): SimSeedData {
    const out: Record<string, unknown> = { system: structuredClone(this.system) };
    for (const { key, app } of simApps) out[key] = structuredClone(this.states.get(app.packageName));
    return out as SimSeedData;
  }

  /** Every fault that fired, in order. */
  faultLog(): FaultEvent[] {
    return this.faults.log();
  }

  /** Installed apps, launcher first. */
  installedApps(): InstalledApp[] {
    return [...this.apps.values()]
      .sort((a, b) => (a.packageName === launcherPackage ? -1 : b.packageName === launcherPackage ? 1 : 0))
      .map((app) => ({ packageName: app.packageName, label: app.label, launchActivity: app.launchActivity }));
  }

  /** Steps so far (actions + observations). */
  stepCount(): number {
    return this.steps;
  }

  /** Virtual milliseconds since start. */
  now(): number {
    return this.virtualTime;
  }

  // ---- engine ------------------------------------------------------------------------

  private newInstance(def: ActivityDef<unknown>, params: Readonly<Record<string, string>>): ActivityInstance {
    this.serial += 1;
    return { serial: this.serial, def, ui: def.create(params), scroll: new Map(), focusedField: undefined, keyboard: false };
  }

  private requireApp(call: string, packageName: string): AnySimApp {
    const app = this.apps.get(packageName);
    if (app === undefined) {
      throw new SimulatorError({ message: `${call}: package "${packageName}" is not installed; installed: ${[...this.apps.keys()].join(', ')}.` });
    }
    return app;
  }

  private findActivity(app: AnySimApp, activity: string): ActivityDef<unknown> {
    const full = activity.startsWith('.') ? `${app.packageName}${activity}` : activity;
    const def = app.activities.find((a) => a.name === full || a.name.endsWith(activity.startsWith('.') ? activity : `.${activity}`));
    if (def === undefined) {
      throw new SimulatorError({ message: `Activity "${activity}" not found in ${app.packageName}; it has ${app.activities.map((a) => a.name).join(', ')}.` });
    }
    return def;
  }

  private startTask(packageName: string, activity: string | undefined): void {
    const app = this.requireApp('launchApp', packageName);
    const def = this.findActivity(app, activity ?? app.launchActivity);
    this.tasks.set(packageName, [this.newInstance(def, {})]);
    this.foreground = packageName;
    for (const p of app.launchPermissions ?? []) {
      const key = `${packageName}/${p.permission}`;
      if (this.system.permissions[key] === 'ask' && !this.permissionQueue.some((q) => q.pkg === packageName && q.permission === p.permission)) {
        this.permissionQueue.push({ pkg: packageName, permission: p.permission, message: p.message });
      }
    }
  }

  private topInstance(pkg: string): ActivityInstance {
    const stack = this.tasks.get(pkg);
    const top = stack?.[stack.length - 1];
    if (top === undefined) throw new Error(`Simulator invariant: no activity for foreground package ${pkg}`);
    return top;
  }

  private advanceClock(ms: number): void {
    const minuteBefore = Math.floor((this.clockStart + this.virtualTime) / 60_000);
    this.virtualTime += ms;
    let changed = Math.floor((this.clockStart + this.virtualTime) / 60_000) !== minuteBefore;
    for (const [pkg, app] of this.apps) {
      if (app.advance !== undefined && app.advance(this.states.get(pkg), ms)) changed = true;
    }
    if (this.toast !== undefined && this.virtualTime >= this.toast.until) {
      this.toast = undefined;
      changed = true;
    }
    if (changed) this.frameCache = undefined;
  }

  private beginAction(extraMs = 0): void {
    this.steps += 1;
    this.advanceClock(actionMs + extraMs);
    this.frameCache = undefined;
    if (this.faults.fires('slow-settle', this.steps)) {
      this.settleRemaining = this.faults.observations('slow-settle');
      this.faults.record('slow-settle', this.steps, `hierarchy unstable for ${this.settleRemaining} observations`);
    }
  }

  private runEffect(run: () => void, detail: string, delayable: boolean): void {
    if (delayable && this.faults.fires('delayed-effect', this.steps)) {
      const n = this.faults.observations('delayed-effect');
      this.pending.push({ due: this.observations + n, run, detail });
      this.faults.record('delayed-effect', this.steps, `${detail} shows after ${n} observations`);
      return;
    }
    run();
    this.frameCache = undefined;
  }

  private runDueEffects(): void {
    const due = this.pending.filter((p) => p.due <= this.observations);
    if (due.length === 0) return;
    for (const p of due) {
      this.pending.splice(this.pending.indexOf(p), 1);
      p.run();
    }
    this.frameCache = undefined;
  }

  private maybeInterstitial(): void {
    if (this.foreground === launcherPackage || this.interstitial !== undefined) return;
    if (!this.faults.fires('interstitial', this.steps)) return;
    const kind = this.faults.streamFor('interstitial', String(this.steps)).next() < 0.5 ? 'rate' : 'update';
    this.interstitial = { kind, pkg: this.foreground };
    this.faults.record('interstitial', this.steps, `${kind === 'rate' ? 'Rate this app' : 'Update available'} dialog over ${this.foreground}`);
    this.frameCache = undefined;
  }

  private checkPoint(call: string, x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x >= this.screen.width || y >= this.screen.height) {
      throw new SimulatorError({ message: `${call}: point (${x}, ${y}) is off the ${this.screen.width}×${this.screen.height} screen; use pixel coordinates inside it.` });
    }
  }

  private back(): void {
    const pkg = this.foreground;
    const instance = this.topInstance(pkg);
    if (instance.keyboard && instance.focusedField !== undefined) {
      instance.keyboard = false;
      return;
    }
    if (this.interstitial?.pkg === pkg) {
      this.interstitial = undefined;
      return;
    }
    const prompt = this.permissionQueue[0];
    if (prompt !== undefined && prompt.pkg === pkg) {
      this.decidePermission('denied');
      return;
    }
    const screen = this.renderScreen(pkg, instance);
    const overlays = screen.overlays ?? [];
    const top = overlays[overlays.length - 1];
    if (top?.onDismiss !== undefined) {
      top.onDismiss();
      return;
    }
    if (screen.onBack?.() === true) return;
    if (pkg === launcherPackage) return;
    const stack = this.tasks.get(pkg) ?? [];
    stack.pop();
    if (stack.length === 0) {
      this.tasks.delete(pkg);
      this.foreground = launcherPackage;
    }
  }

  private home(): void {
    this.foreground = launcherPackage;
  }

  private decidePermission(decision: 'granted' | 'denied'): void {
    const prompt = this.permissionQueue.shift();
    if (prompt === undefined) return;
    this.system.permissions[`${prompt.pkg}/${prompt.permission}`] = decision;
    this.frameCache = undefined;
  }

  private focusedField(call: string): NonNullable<Widget['field']> {
    const field = this.findFocusedField();
    if (field === undefined) {
      throw new SimulatorError({ message: `${call}: no text field is focused in ${this.foreground}${this.currentActivity()}; tap an EditText first.` });
    }
    return field;
  }

  private findFocusedField(): Widget['field'] {
    const instance = this.topInstance(this.foreground);
    const key = instance.focusedField;
    if (key === undefined) return undefined;
    for (const window of this.currentFrame().windows) {
      const found = findNode(window.root, (n) => n.widget.field?.key === key);
      if (found?.widget.field !== undefined) return found.widget.field;
    }
    return undefined;
  }

  private context(pkg: string, instance: ActivityInstance): ActivityContext<unknown> {
    const app = this.apps.get(pkg) as AnySimApp;
    const screenDp = { width: Math.round(this.screen.width / this.scale), height: Math.round(this.screen.height / this.scale) };
    return {
      state: this.states.get(pkg),
      screen: screenDp,
      now: this.virtualTime,
      clock: new Date(this.clockStart + this.virtualTime),
      start: (activity, params = {}) => {
        const stack = this.tasks.get(pkg);
        if (stack === undefined) return;
        stack.push(this.newInstance(this.findActivity(app, activity), params));
      },
      finish: () => {
        const stack = this.tasks.get(pkg);
        if (stack === undefined) return;
        const index = stack.indexOf(instance);
        if (index >= 0) stack.splice(index, 1);
        if (stack.length === 0) {
          this.tasks.delete(pkg);
          if (this.foreground === pkg) this.foreground = launcherPackage;
        }
      },
      toast: (text) => {
        this.toast = { text, pkg, until: this.virtualTime + toastMs };
      },
      focus: (fieldKey) => {
        instance.focusedField = fieldKey;
        instance.keyboard = fieldKey !== undefined;
      },
      installedApps: () =>
        [...this.apps.values()].filter((a) => a.packageName !== launcherPackage).map((a) => ({ packageName: a.packageName, label: a.label, icon: a.icon })),
      launch: (packageName) => {
        if (packageName === launcherPackage) this.home();
        else if (this.tasks.has(packageName)) this.foreground = packageName;
        else this.startTask(packageName, undefined);
        this.maybeInterstitial();
      },
    };
  }

  private renderScreen(pkg: string, instance: ActivityInstance): Screen {
    return instance.def.render(this.context(pkg, instance), instance.ui);
  }

  private currentFrame(): Frame {
    if (this.frameCache !== undefined) return this.frameCache;
    this.frameCache = this.buildFrame();
    return this.frameCache;
  }

  /**
   * The current screen as it would be without label faults (`icon-only`, `relabel`, `swap-labels`), in
   * the given dialect. Not an observation: it advances no counter or clock. Only the
   * oracle policy uses it, as the "eyes" behind its vision answers; an agent never sees it.
   */
  groundTruthSource(dialect: PageSourceDialect = 'appium-uia2'): string {
    const frame = this.buildFrame(false);
    return renderPageSource(frame.windows.map((w) => w.root), dialect, this.screen);
  }

  private buildFrame(stripLabels = true): Frame {
    const { width: W, height: H } = this.screen;
    const px = (dp: number): number => Math.round(dp * this.scale);
    const statusH = px(statusBarDp);
    const navH = px(navBarDp);
    const pkg = this.foreground;
    const instance = this.topInstance(pkg);
    const keyboardShown = instance.keyboard && instance.focusedField !== undefined;
    const kbH = keyboardShown ? px(keyboardDp) : 0;
    const appBottom = H - navH - kbH;
    const extents = new Map<ActivityInstance, ScrollExtents>();
    const instanceExtents: ScrollExtents = new Map();
    let focusedAt: { rect: PixelRect; scrollKey: string | undefined } | undefined;
    extents.set(instance, instanceExtents);
    const screen = this.renderScreen(pkg, instance);
    const layout = (root: Widget, box: PixelRect, windowPkg: string, withExtents: boolean): LaidNode =>
      layoutWindow(root, box, {
        scale: this.scale,
        pkg: windowPkg,
        scrollOffsets: instance.scroll,
        focusedField: instance.focusedField,
        hintAsText: this.hintAsText,
        extents: withExtents ? instanceExtents : new Map(),
        reorder: (key, count) => this.shuffleOrder(instance, key, count),
        onFocusedField: (rect, scrollKey) => {
          focusedAt = { rect, scrollKey };
        },
      });
    const windows: WindowFrame[] = [];
    const settings = this.states.get('com.android.settings') as
      | { network?: { wifi?: boolean; airplaneMode?: boolean; bluetooth?: boolean }; battery?: { level?: number; showPercentage?: boolean } }
      | undefined;
    const network = settings?.network ?? {};
    const battery = settings?.battery ?? {};
    windows.push({
      kind: 'status-bar',
      root: layout(statusBar(new Date(this.clockStart + this.virtualTime), { wifi: network.wifi ?? true, airplane: network.airplaneMode ?? false, bluetooth: network.bluetooth ?? false, battery: battery.level ?? 100, showPercentage: battery.showPercentage ?? false }), [0, 0, W, statusH], systemUiPackage, false),
      touchable: true,
      modal: false,
      instance: undefined,
    });
    windows.push({
      kind: 'nav-bar',
      root: layout(navigationBar({ back: () => this.back(), home: () => this.home(), overview: () => undefined }), [0, H - navH, W, H], systemUiPackage, false),
      touchable: true,
      modal: false,
      instance: undefined,
    });
    if (this.toast !== undefined) {
      const toast = toastWidget(this.toast.text);
      const tw = Math.min(W - px(48), Math.max(px(120), measureToastWidth(this.toast.text, this.scale)));
      const th = measureHeight(toast, tw, this.scale);
      const left = Math.round((W - tw) / 2);
      const bottom = H - navH - px(64);
      windows.push({ kind: 'toast', root: layout(toast, [left, bottom - th, left + tw, bottom], this.toast.pkg, false), touchable: false, modal: false, instance: undefined });
    }
    if (keyboardShown) {
      const keyboard = softKeyboard({
        type: (text) => {
          const field = this.findFocusedField();
          field?.onChange(field.value + text);
        },
        backspace: () => {
          const field = this.findFocusedField();
          field?.onChange(field.value.slice(0, -1));
        },
        enter: () => this.findFocusedField()?.onSubmit?.(),
        hide: () => {
          instance.keyboard = false;
        },
      });
      windows.push({ kind: 'keyboard', root: layout(keyboard, [0, appBottom, W, H - navH], keyboardPackage, false), touchable: true, modal: false, instance });
    }
    const app = this.apps.get(pkg) as AnySimApp;
    if (this.interstitial?.pkg === pkg) {
      const root = interstitialDialog(this.interstitial.kind, app.label, () => {
        this.interstitial = undefined;
      });
      windows.push({ kind: 'interstitial', root: layout(wrapDialog(root), this.centeredBox(root, W - px(48), statusH, appBottom), pkg, false), touchable: true, modal: true, instance });
    }
    const prompt = this.permissionQueue[0];
    if (prompt !== undefined && prompt.pkg === pkg) {
      const root = permissionDialog(prompt.message, { allow: () => this.decidePermission('granted'), deny: () => this.decidePermission('denied') });
      windows.push({ kind: 'permission', root: layout(wrapDialog(root), this.centeredBox(root, W - px(48), statusH, appBottom), permissionControllerPackage, false), touchable: true, modal: true, instance });
    }
    const overlays = [...(screen.overlays ?? [])].reverse();
    for (const overlay of overlays) {
      windows.push({ ...this.overlayWindow(overlay, pkg, statusH, appBottom, layout), instance });
    }
    // The window decor every real activity has (PhoneWindow's DecorView and action bar root).
    const decor = frame({}, [
      view('android.widget.LinearLayout', { layout: 'column' }, [
        frame({ height: 'fill' }, [
          view('android.widget.LinearLayout', { id: `${pkg}:id/action_bar_root`, layout: 'column' }, [
            frame({ id: 'android:id/content', height: 'fill', padding: [0, statusBarDp, 0, 0] }, [screen.root]),
          ]),
        ]),
      ]),
    ]);
    focusedAt = undefined;
    let appRoot = layout(decor, [0, 0, W, appBottom], pkg, true);
    if (keyboardShown && reveal(focusedAt, instance, instanceExtents)) appRoot = layout(decor, [0, 0, W, appBottom], pkg, true);
    windows.push({ kind: 'app', root: appRoot, touchable: true, modal: false, instance });
    for (const window of windows) {
      if (stripLabels && (window.kind === 'app' || window.kind === 'dialog' || window.kind === 'popup' || window.kind === 'sheet')) {
        this.applyIconOnly(window.root, pkg);
        this.applyRelabel(window.root, pkg);
        this.applySwapLabels(window.root, pkg);
      }
    }
    return { windows, extents };
  }

  private centeredBox(root: Widget, width: number, top: number, bottom: number): PixelRect {
    const h = Math.min(bottom - top, measureHeight(wrapDialog(root), width, this.scale));
    const left = Math.round((this.screen.width - width) / 2);
    const y = Math.max(top, Math.round(top + (bottom - top - h) / 2));
    return [left, y, left + width, y + h];
  }

  private overlayWindow(
    overlay: Overlay,
    pkg: string,
    top: number,
    bottom: number,
    layout: (root: Widget, box: PixelRect, windowPkg: string, withExtents: boolean) => LaidNode,
  ): Omit<WindowFrame, 'instance'> {
    const px = (dp: number): number => Math.round(dp * this.scale);
    const W = this.screen.width;
    const modal = overlay.onDismiss === undefined;
    switch (overlay.kind) {
      case 'dialog': {
        const width = overlay.width !== undefined ? px(overlay.width) : W - px(48);
        return { kind: 'dialog', root: layout(wrapDialog(overlay.root), this.centeredBox(overlay.root, width, top, bottom), pkg, true), touchable: true, modal, onOutside: overlay.onDismiss };
      }
      case 'popup': {
        const width = px(overlay.width ?? 200);
        const h = Math.min(bottom - top, measureHeight(overlay.root, width, this.scale));
        const right = overlay.anchor !== undefined ? px(overlay.anchor.x) : W - px(8);
        const y = overlay.anchor !== undefined ? px(overlay.anchor.y) : top + px(8);
        const left = Math.max(0, right - width);
        return { kind: 'popup', root: layout(frame({}, [overlay.root]), [left, y, left + width, Math.min(bottom, y + h)], pkg, true), touchable: true, modal, onOutside: overlay.onDismiss };
      }
      case 'sheet': {
        const h = Math.min(Math.round((bottom - top) * 0.9), measureHeight(overlay.root, W, this.scale));
        return { kind: 'sheet', root: layout(wrapDialog(overlay.root), [0, bottom - h, W, bottom], pkg, true), touchable: true, modal, onOutside: overlay.onDismiss };
      }
    }
  }

  private shuffleOrder(instance: ActivityInstance, key: string, count: number): readonly number[] | undefined {
    if (count < 2 || !this.faults.isEnabled('shuffle')) return undefined;
    const target = `${instance.serial}:${key}:${count}`;
    if (!this.faults.firesFor('shuffle', target)) return undefined;
    const order = this.faults.streamFor('shuffle', target).shuffle([...Array(count).keys()]);
    if (!this.loggedTargets.has(`shuffle:${target}`)) {
      this.loggedTargets.add(`shuffle:${target}`);
      this.faults.record('shuffle', this.steps, `list ${key} shown in order ${order.join(',')}`);
    }
    return order;
  }

  private applyIconOnly(root: LaidNode, pkg: string): void {
    if (!this.faults.isEnabled('icon-only')) return;
    const visit = (node: LaidNode): void => {
      if (node.clickable && node.widget.icon !== undefined && (node.desc !== '' || node.text !== '')) {
        const target = `${pkg}|${node.resourceId}|${node.desc || node.text}`;
        if (this.faults.firesFor('icon-only', target)) {
          if (!this.loggedTargets.has(`icon:${target}`)) {
            this.loggedTargets.add(`icon:${target}`);
            this.faults.record('icon-only', this.steps, `${node.cls} "${node.desc || node.text}" lost its label`);
          }
          node.desc = '';
          node.text = '';
        }
      }
      for (const child of node.children) visit(child);
    };
    visit(root);
  }

  /** The `relabel` fault: a control whose label holds a word of `relabelWords` shows it renamed (seeded per control; the ground truth keeps the old name). */
  private applyRelabel(root: LaidNode, pkg: string): void {
    if (!this.faults.isEnabled('relabel')) return;
    const visit = (node: LaidNode): void => {
      if (node.clickable) {
        for (const field of ['text', 'desc'] as const) {
          const renamed = relabelled(node[field]);
          if (renamed === undefined) continue;
          const target = `${pkg}|${node.resourceId}|${node[field]}`;
          if (!this.faults.firesFor('relabel', target)) continue;
          if (!this.loggedTargets.has(`relabel:${target}`)) {
            this.loggedTargets.add(`relabel:${target}`);
            this.faults.record('relabel', this.steps, `${node.cls} "${node[field]}" shown as "${renamed}"`);
          }
          node[field] = renamed;
        }
      }
      for (const child of node.children) visit(child);
    };
    visit(root);
  }

  /** The `swap-labels` fault: sibling buttons that show text trade their labels (seeded per group; the ground truth keeps them in place). */
  private applySwapLabels(root: LaidNode, pkg: string): void {
    if (!this.faults.isEnabled('swap-labels')) return;
    const visit = (node: LaidNode): void => {
      const labelled = node.children.filter((child) => child.clickable && child.text !== '' && child.children.length === 0);
      const labels = labelled.map((child) => child.text);
      if (labelled.length >= 2 && new Set(labels).size === labels.length) {
        const target = `${pkg}|${node.resourceId}|${labels.join('|')}`;
        if (this.faults.firesFor('swap-labels', target)) {
          if (!this.loggedTargets.has(`swap:${target}`)) {
            this.loggedTargets.add(`swap:${target}`);
            this.faults.record('swap-labels', this.steps, `labels ${labels.map((label) => `"${label}"`).join(', ')} shown one place on`);
          }
          // Each button shows its next sibling's label (the last shows the first's).
          labelled.forEach((child, index) => {
            child.text = labels[(index + 1) % labels.length] as string;
          });
        }
      }
      for (const child of node.children) visit(child);
    };
    visit(root);
  }

  private withSpinner(roots: readonly LaidNode[], remaining: number): LaidNode[] {
    const appIndex = roots.length - 1;
    const app = roots[appIndex];
    if (app === undefined) return [...roots];
    const W = this.screen.width;
    const size = Math.round(48 * this.scale);
    const top = Math.round(this.screen.height / 3) + remaining * Math.round(8 * this.scale);
    const left = Math.round((W - size) / 2);
    const spinner: LaidNode = {
      ...app,
      widget: view('android.widget.ProgressBar'),
      cls: 'android.widget.ProgressBar',
      resourceId: `${app.pkg}:id/progress`,
      text: '',
      desc: 'Loading',
      hint: '',
      showingHint: false,
      clickable: false,
      longClickable: false,
      checkable: false,
      checked: false,
      focusable: false,
      focused: false,
      selected: false,
      scrollable: false,
      password: false,
      bounds: [left, top, left + size, top + size],
      fullRect: [left, top, left + size, top + size],
      index: app.children.length,
      drawingOrder: app.children.length + 1,
      children: [],
    };
    return [...roots.slice(0, appIndex), { ...app, children: [...app.children, spinner] }];
  }

  private touchWindow(frame: Frame, x: number, y: number): WindowFrame | undefined {
    for (const window of frame.windows) {
      if (!window.touchable) continue;
      if (contains(window.root.bounds, x, y)) return window;
      if (window.modal) return undefined;
      if (window.onOutside !== undefined) return undefined;
    }
    return undefined;
  }

  private hitEffect(x: number, y: number, gesture: 'tap' | 'long'): { run: () => void; detail: string } | undefined {
    const frame = this.currentFrame();
    for (const window of frame.windows) {
      if (!window.touchable) continue;
      if (!contains(window.root.bounds, x, y)) {
        if (window.onOutside !== undefined) {
          const outside = window.onOutside;
          return { run: outside, detail: `tap outside ${window.kind} dismisses it` };
        }
        if (window.modal) return undefined;
        continue;
      }
      const path = pathAt(window.root, x, y);
      for (let i = path.length - 1; i >= 0; i--) {
        const node = path[i] as LaidNode;
        if (!node.enabled) return undefined;
        const w = node.widget;
        if (gesture === 'long') {
          if (w.onLongPress !== undefined) return { run: w.onLongPress, detail: `long-press ${describe(node)}` };
          continue;
        }
        if (w.field !== undefined) {
          const key = w.field.key;
          const instance = window.instance ?? this.topInstance(this.foreground);
          return {
            run: () => {
              instance.focusedField = key;
              instance.keyboard = true;
            },
            detail: `focus ${describe(node)}`,
          };
        }
        if (w.slider !== undefined) {
          const binding = w.slider;
          const value = sliderValue(node, x, binding.max);
          return { run: () => binding.onChange(value), detail: `set ${describe(node)} to ${value}` };
        }
        if (w.onTap !== undefined) return { run: w.onTap, detail: `tap ${describe(node)}` };
      }
      return undefined;
    }
    return undefined;
  }
}

/**
 * Scrolls the focused field's container so the field is fully in view (Android does this
 * when the keyboard opens: `requestRectangleOnScreen`). True when the offset changed.
 */
function reveal(
  focused: { rect: PixelRect; scrollKey: string | undefined } | undefined,
  instance: { readonly scroll: Map<string, number> },
  extents: ScrollExtents,
): boolean {
  if (focused?.scrollKey === undefined) return false;
  const extent = extents.get(focused.scrollKey);
  if (extent === undefined) return false;
  const [, top, , bottom] = focused.rect;
  const viewport = extent.viewport;
  let delta = 0;
  if (bottom > viewport[3]) delta = Math.min(bottom - viewport[3], top - viewport[1]);
  else if (top < viewport[1]) delta = top - viewport[1];
  if (delta === 0) return false;
  const current = instance.scroll.get(focused.scrollKey) ?? 0;
  const next = Math.max(0, Math.min(extent.max, current + delta));
  if (next === current) return false;
  instance.scroll.set(focused.scrollKey, next);
  return true;
}

function wrapDialog(root: Widget): Widget {
  return frame({}, [frame({ id: 'android:id/content' }, [root])]);
}

function measureToastWidth(text: string, scale: number): number {
  return Math.ceil(text.length * 14 * scale * 0.55 + 32 * scale);
}

function contains(bounds: PixelRect, x: number, y: number): boolean {
  return x >= bounds[0] && x < bounds[2] && y >= bounds[1] && y < bounds[3];
}

function pathAt(root: LaidNode, x: number, y: number): LaidNode[] {
  const path: LaidNode[] = [];
  let node: LaidNode | undefined = root;
  while (node !== undefined && contains(node.bounds, x, y)) {
    path.push(node);
    let next: LaidNode | undefined;
    // Later siblings draw on top: search from the last child.
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i] as LaidNode;
      if (contains(child.bounds, x, y)) {
        next = child;
        break;
      }
    }
    node = next;
  }
  return path;
}

function findNode(root: LaidNode, predicate: (node: LaidNode) => boolean): LaidNode | undefined {
  if (predicate(root)) return root;
  for (const child of root.children) {
    const found = findNode(child, predicate);
    if (found !== undefined) return found;
  }
  return undefined;
}

function sliderValue(node: LaidNode, x: number, max: number): number {
  const [l, , r] = node.fullRect;
  const ratio = r > l ? (x - l) / (r - l) : 0;
  return Math.round(Math.max(0, Math.min(1, ratio)) * max);
}

function describe(node: LaidNode): string {
  const name = node.text || node.desc || node.resourceId || node.cls;
  return `${node.cls.split('.').pop() ?? node.cls} "${name}"`;
}

/** An activity as Appium and dumpsys name it: `.Name` when its class lives under the package, else the full class name. */
function shortActivityName(pkg: string, activityClass: string): string {
  return activityClass.startsWith(`${pkg}.`) ? activityClass.slice(pkg.length) : activityClass;
}

/** `package/.Name` (or `package/full.Name`), as dumpsys and DroidBot's `activity_stack` write a component. */
function componentName(pkg: string, activityClass: string): string {
  return `${pkg}/${shortActivityName(pkg, activityClass)}`;
}
