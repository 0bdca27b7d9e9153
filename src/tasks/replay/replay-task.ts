import type { ScrollDirection } from '../../ui/scroll-direction.js';
import type { Bounds, UiTree } from '../../ui/ui-tree.js';

/** The element a recorded action went to, as the recording names it. */
export interface ReplayElement {
  readonly bounds: Bounds;
  readonly className: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
}

/**
 * A recorded action. `tap`, `long-press` and `set-text` name an element (set-text may
 * not: a typed text with no single focused field); a `scroll` is replayed when it names
 * its element and its direction; other keys than Back and Home are kept so a report can
 * count what it did not replay.
 */
export type ReplayAction =
  | { readonly kind: 'tap' | 'long-press'; readonly element?: ReplayElement }
  /** `append`: the text was typed at the cursor without clearing the field first. */
  /** `submitted`: the recorder pressed Enter / Search right after typing, in the same step. */
  /** `typedAlso`: what some versions of the recorder type for `text` instead (DroidBot's quotes kept: `droidBotTypedAlso`). */
  | { readonly kind: 'set-text'; readonly text: string; readonly append: boolean; readonly submitted: boolean; readonly typedAlso?: string; readonly element?: ReplayElement }
  | { readonly kind: 'key'; readonly key: string }
  /** `direction`: which way content was moved into view, when the recorder logged it (`down` shows what is further down). */
  | { readonly kind: 'scroll'; readonly element?: ReplayElement; readonly direction?: ScrollDirection };

/** One recorded transition: the screen before an action, the action, the screen after it. */
export interface ReplayStep {
  /** Stable id from the source (a transition id, or `<task file>#<step>`). */
  readonly id: string;
  /** The app package the action was in. */
  readonly app: string;
  readonly before: UiTree;
  readonly after: UiTree;
  /** Where the two screens came from (files), for examples in reports. */
  readonly beforeFile: string;
  readonly afterFile: string;
  readonly action: ReplayAction;
  /** True when the recording marks the step as having changed nothing (before and after identical). */
  readonly noVisibleEffect: boolean;
  /** A quality tier the source gives (e.g. A / B / C), when it has one. */
  readonly quality?: string;
  /**
   * True when the after screen is not a capture taken right after the action but another
   * capture of the state reached: DroidBot keeps one file per state, so the state reached
   * may be on disk only as saved earlier (its folders, DroidTask), and a transitions record
   * says so with `after_capture: "other_capture…"`. It shows the same views, but which of
   * two alike switches is on may differ.
   */
  readonly afterFromOtherCapture?: boolean;
  /**
   * The screen the recorder started the app from by an intent right before this step (the
   * home screen, as DroidBot's `am start` leaves it under the app): the page Back leads to
   * from the page the app opened on. Absent when no such start came before the step.
   */
  readonly launchedFrom?: UiTree;
}

/** A recorded demonstration or run: its steps in the order they were taken. */
export interface ReplayTask {
  readonly id: string;
  readonly app: string;
  readonly steps: readonly ReplayStep[];
  /** Actions the recording holds for this task, counting those the loader could not make a step of (listed in `ReplaySource.skipped`); `steps.length` when absent. */
  readonly recordedSteps?: number;
}

/** A recorded file the loader could not read and left out, with the problem. */
export interface UnreadableFile {
  readonly file: string;
  readonly problem: string;
}

/** The screens a source holds, and those with views whose bounds are inverted (scrolled partly off screen: kept, with zero visible area). */
export interface ScreenCounts {
  readonly read: number;
  readonly withInvertedBounds: number;
  readonly invertedViews: number;
}

/** Recorded transitions from one source (a transitions JSONL, DroidTask app folders, DroidBot output folders). */
export interface ReplaySource {
  /** What was loaded, for the report header (a path). */
  readonly name: string;
  readonly format: 'transitions-jsonl' | 'droidtask' | 'droidbot';
  readonly tasks: readonly ReplayTask[];
  /** Records the loader skipped, each with why (e.g. a DroidTask step with no recorded screen). */
  readonly skipped: readonly { readonly id: string; readonly reason: string }[];
  /** Files that could not be read (empty, malformed) and were left out. */
  readonly unreadable: readonly UnreadableFile[];
  readonly screens: ScreenCounts;
}
