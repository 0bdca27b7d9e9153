import type { z } from 'zod';
import type { Widget } from './widget.js';

/** A window an activity shows above its content: a dialog, a popup menu or a bottom sheet. */
export interface Overlay {
  readonly kind: 'dialog' | 'popup' | 'sheet';
  readonly root: Widget;
  /** Width in dp (dialogs default to the screen minus 2×24 dp, popups to 200 dp). */
  readonly width?: number | undefined;
  /** Popups: top-right corner anchor in dp (defaults to the top right under the status bar). */
  readonly anchor?: { readonly x: number; readonly y: number } | undefined;
  /** Called on a tap outside the overlay or on back; absent = the overlay is modal. */
  readonly onDismiss?: (() => void) | undefined;
}

/** What an activity shows right now. */
export interface Screen {
  /** The activity's content (fills the app area below the status bar). */
  readonly root: Widget;
  /** Stacked above the content, last on top. */
  readonly overlays?: readonly Overlay[] | undefined;
  /** Back handling before the engine pops the activity; return true when consumed. */
  readonly onBack?: (() => boolean) | undefined;
}

/** What the engine offers an activity while it renders and handles input. */
export interface ActivityContext<S> {
  /** The app's state; handlers mutate it in place. */
  readonly state: S;
  /** Screen size in dp. */
  readonly screen: { readonly width: number; readonly height: number };
  /** Virtual time in ms since the simulator started (see `Simulator.advanceTime`). */
  readonly now: number;
  /** Wall-clock of the simulated phone (fixed start + virtual time). */
  readonly clock: Date;
  /** Starts an activity of this app (by short or full name) on top of the back stack. */
  start(activity: string, params?: Readonly<Record<string, string>>): void;
  /** Closes this activity (back to the one below it, or home). */
  finish(): void;
  /** Shows a toast for about 2 s of virtual time. */
  toast(text: string): void;
  /** Focuses the field with this key (shows the keyboard); `undefined` clears focus. */
  focus(fieldKey: string | undefined): void;
  /** Another app's state, read-only (e.g. Settings reads nothing else; the launcher lists apps). */
  installedApps(): readonly { packageName: string; label: string; icon: string }[];
  /** Starts another installed app, as an intent would. */
  launch(packageName: string): void;
}

/** One activity: a name, its per-instance UI state, and a render function. */
export interface ActivityDef<S> {
  /** Full class name, e.g. `com.android.deskclock.DeskClock`. */
  readonly name: string;
  create(params: Readonly<Record<string, string>>): unknown;
  render(context: ActivityContext<S>, ui: unknown): Screen;
}

/** Typed helper: the engine stores `ui` opaquely; this keeps each activity typed. */
export function defineActivity<S, U>(def: {
  readonly name: string;
  create(params: Readonly<Record<string, string>>): U;
  render(context: ActivityContext<S>, ui: U): Screen;
}): ActivityDef<S> {
  return {
    name: def.name,
    create: (params) => def.create(params),
    render: (context, ui) => def.render(context, ui as U),
  };
}

/** A simulated app: its identity, its state schema and its activities. */
export interface SimApp<S> {
  readonly packageName: string;
  readonly label: string;
  /** Icon glyph on the launcher. */
  readonly icon: string;
  /** Full class name of the launch activity. */
  readonly launchActivity: string;
  readonly stateSchema: z.ZodType<S>;
  defaultState(): S;
  readonly activities: readonly ActivityDef<S>[];
  /** Runtime permissions the app requests on first launch (dialog from the permission controller). */
  readonly launchPermissions?: readonly { readonly permission: string; readonly message: string }[] | undefined;
  /** Lets time-driven state (timers) follow the virtual clock; returns true when the screen would change. */
  readonly advance?: ((state: S, ms: number) => boolean) | undefined;
}

/** Any app, state type erased (the registry holds several). */
export type AnySimApp = SimApp<unknown>;

/** Erases an app's state type for the registry. */
export function eraseApp<S>(app: SimApp<S>): AnySimApp {
  return app as unknown as AnySimApp;
}
