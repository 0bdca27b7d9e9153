import type { DeviceAction } from '../../device/device-action.js';
import type { ControlUnit } from '../../perception/control-unit.js';
import type { Task } from '../../tasks/task-schema.js';
import { isLauncherPackage } from '../../ui/launcher.js';
import type { AgentSession, Screen } from '../agent-session.js';
import type { CommitmentItem } from '../planning/plan-reply.js';

/** Packages the agent may be on besides the task's own: system surfaces it must get through. */
export const systemPackages: readonly string[] = [
  'com.android.systemui',
  'com.android.permissioncontroller',
  'com.google.android.permissioncontroller',
  'com.google.android.apps.nexuslauncher',
  'com.android.launcher3',
  'com.google.android.inputmethod.latin',
];

/** How many times the guard presses Back before it goes Home and relaunches the task's app. */
export const maxBackPresses = 2;

/** Words of an app label that name no app in particular (vendors, generic words). */
const genericWords = new Set(['google', 'android', 'app', 'apps', 'pro', 'the', 'simple', 'mobile', 'tools', 'for', 'and', 'lite', 'free']);

/** True when `label` (a launcher icon's text) plausibly names `packageName`: one of its distinctive words is in the package. */
export function labelNamesPackage(label: string, packageName: string): boolean {
  const target = packageName.toLowerCase();
  const words = label.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3 && !genericWords.has(word));
  return words.some((word) => target.includes(word));
}

/** What the guard did about one screen. */
export interface GuardLeave {
  /** The disallowed package that was in the foreground. */
  readonly packageName: string;
  /** The screen after leaving it (allowed again unless the device would not let go). */
  readonly screen: Screen;
}

/**
 * Keeps every agent mode inside the task's allowed apps (docs/architecture.md §2.10: leaving them is a
 * failure). Two duties, shared by the SenseAct loop and the ReAct baselines:
 * - before an action runs, `refusal` names actions that would open another app: launching a
 *   package outside the allowed ones, or tapping a home-screen icon that does not name an
 *   allowed app (the planner should use `nav-launch` with an allowed package);
 * - after every observation, `leaveDisallowed` gets the agent out of a foreground outside
 *   the allowed apps and the system surfaces at once (Back, or Home and a relaunch of the
 *   task's app; from the home screen it resumes the task's app), before any model sees
 *   that screen.
 * Every departure is kept in `left` and traced as `guard-end`; `runTask` fails the task for
 * it unless the task sets `mayLeaveAllowedApps`.
 */
export class ForegroundGuard {
  /** The task's packages plus the system surfaces. */
  readonly allowed: ReadonlySet<string>;
  private readonly taskPackages: readonly string[];
  private readonly app: string;
  private readonly visited: string[] = [];

  /** With `anyApp`, every package is allowed (a session that was given no list of apps): the guard refuses and leaves nothing. */
  constructor(task: Pick<Task, 'allowedPackages' | 'app'>, private readonly options: { readonly anyApp?: boolean } = {}) {
    this.taskPackages = task.allowedPackages;
    this.app = task.app;
    this.allowed = new Set([...task.allowedPackages, ...systemPackages]);
  }

  /** Disallowed packages the foreground reached, in order of arrival (a package again after a return counts again). */
  get left(): readonly string[] {
    return this.visited;
  }

  /** True when `packageName` may be in the foreground ('' is an unknown foreground: not judged). */
  allows(packageName: string): boolean {
    return packageName === '' || this.options.anyApp === true || this.allowed.has(packageName);
  }

  /**
   * Why acting on `unit` with `item` on `screen` would leave the allowed apps, or undefined
   * when it would not (as far as the screen tells).
   */
  refusal(unit: ControlUnit, item: CommitmentItem, screen: Screen): string | undefined {
    if (this.options.anyApp === true) return undefined;
    if (unit.id === 'nav-launch') {
      if (item.value !== undefined && !this.allowed.has(item.value)) return `launching "${item.value}" is outside the allowed apps (${this.taskPackages.join(', ')})`;
      return undefined;
    }
    if (unit.tap === null || unit.type === 'scroll') return undefined;
    const packageName = screen.perception.tree.packageName;
    if (!isLauncherPackage(packageName)) return undefined;
    if (this.taskPackages.some((allowed) => labelNamesPackage(unit.label, allowed))) return undefined;
    return `"${unit.label}" on the home screen does not open an allowed app (${this.taskPackages.join(', ')}); use nav-launch with an allowed package`;
  }

  /**
   * Leaves a disallowed foreground: Back up to {@link maxBackPresses} times, then Home and
   * a launch of the task's app. Returns undefined when `screen` is allowed (nothing done).
   * Records the departure and traces it.
   */
  async leaveDisallowed(session: AgentSession, screen: Screen): Promise<GuardLeave | undefined> {
    const packageName = screen.perception.tree.packageName;
    if (this.allows(packageName)) return undefined;
    this.visited.push(packageName);
    const back: DeviceAction[] = [{ type: 'key', key: 'back' }];
    const relaunch: DeviceAction[] = [{ type: 'key', key: 'home' }, { type: 'launch', packageName: this.app }];
    let current = screen;
    for (const actions of [...Array.from({ length: maxBackPresses }, () => back), relaunch]) {
      await session.act(actions);
      current = await session.observe('after.xml');
      const now = current.perception.tree.packageName;
      if (!this.allows(now)) continue;
      // Back from an app started on top of ours lands on the home screen: resume the task's app.
      if (isLauncherPackage(now) && actions === back) {
        await session.act([{ type: 'launch', packageName: this.app }]);
        current = await session.observe('after.xml');
      }
      break;
    }
    const now = current.perception.tree.packageName;
    session.trace.emit({ type: 'guard-end', step: session.step, packageName, action: 'left', detail: this.allows(now) ? `back in ${now || 'an unknown app'}` : `still in ${now}: the device did not let go` });
    return { packageName, screen: current };
  }

  /** Traces an action the guard refused before it ran. */
  traceRefusal(session: AgentSession, packageName: string, reason: string): void {
    session.trace.emit({ type: 'guard-end', step: session.step, packageName, action: 'refused', detail: reason });
  }
}
