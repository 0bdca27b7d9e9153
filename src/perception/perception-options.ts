/** How far `perceive` reduces the tree (DESIGN.md §1.2). */
export interface PerceptionOptions {
  /** 1 = `sparse` (drop nodes with neither function nor text), 2 = also `merge` (fold into actionable parents). Default 2. */
  readonly level?: 1 | 2;
  /** Drop `com.android.systemui` nodes (status and navigation bars) unless SystemUI is the foreground package. Default true. */
  readonly removeSystemBar?: boolean;
  /** At level 2, merge a child covering ≥ 80 % of its parent in both dimensions into the parent. Default true. */
  readonly useBounds?: boolean;
  /** At level 2, merge a row with its one switch/checkbox into a single toggle unit. Default true. */
  readonly mergeSwitch?: boolean;
}

/** `PerceptionOptions` with every default filled in. */
export type ResolvedPerceptionOptions = Required<PerceptionOptions>;

/** Fills in the defaults: level 2, removeSystemBar, useBounds and mergeSwitch all on. */
export function resolvePerceptionOptions(options: PerceptionOptions = {}): ResolvedPerceptionOptions {
  return {
    level: options.level ?? 2,
    removeSystemBar: options.removeSystemBar ?? true,
    useBounds: options.useBounds ?? true,
    mergeSwitch: options.mergeSwitch ?? true,
  };
}

/** A child covering at least this share of its parent's width and height merges into it (`useBounds`). */
export const boundsMergeThreshold = 0.8;
