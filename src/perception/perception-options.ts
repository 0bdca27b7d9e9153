/** How far `perceive` reduces the tree (docs/architecture.md §2.2). */
export interface PerceptionOptions {
  /** 1 = `sparse` (drop nodes with neither function nor text), 2 = also `merge` (fold into actionable parents). Default 2. */
  readonly level?: 1 | 2;
  /** Drop `com.android.systemui` nodes (status and navigation bars) unless SystemUI is the foreground package. Default true. */
  readonly removeSystemBar?: boolean;
  /** At level 2, merge a child covering ≥ 80 % of its parent in both dimensions into the parent. Default true. */
  readonly useBounds?: boolean;
  /** At level 2, merge a row with its one switch/checkbox into a single toggle unit. Default true. */
  readonly mergeSwitch?: boolean;
  /**
   * The view's row budget: past it, rows are left out ("… N more rows, scroll") so that a
   * dense screen cannot blow up the prompt. Surfaces, scroll containers, fields and rows
   * that name a {@link viewFocus} word are kept first. Default {@link defaultViewRows}.
   */
  readonly viewRows?: number;
  /** Words (usually the task's) whose rows the view keeps when it must leave rows out. Default none. */
  readonly viewFocus?: readonly string[];
}

/** `PerceptionOptions` with every default filled in. */
export type ResolvedPerceptionOptions = Required<PerceptionOptions>;

/**
 * Rows the planner view shows at most (one row ≈ 10–15 o200k tokens, so ≈ 600 tokens).
 * A phone screen seldom shows more than 25 list rows; denser dumps (web views, grids,
 * nested lists) are cut to this.
 */
export const defaultViewRows = 40;

/** Fills in the defaults: level 2, removeSystemBar, useBounds and mergeSwitch all on, {@link defaultViewRows}, no focus words. */
export function resolvePerceptionOptions(options: PerceptionOptions = {}): ResolvedPerceptionOptions {
  return {
    level: options.level ?? 2,
    removeSystemBar: options.removeSystemBar ?? true,
    useBounds: options.useBounds ?? true,
    mergeSwitch: options.mergeSwitch ?? true,
    viewRows: options.viewRows ?? defaultViewRows,
    viewFocus: options.viewFocus ?? [],
  };
}

/** A child covering at least this share of its parent's width and height merges into it (`useBounds`). */
export const boundsMergeThreshold = 0.8;
