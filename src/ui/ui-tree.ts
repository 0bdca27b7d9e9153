import type { Brand } from '../util/brand.js';

/**
 * Screen rectangle in device pixels: `[left, top, right, bottom]`, right/bottom exclusive.
 * Devices sometimes report inverted rectangles (right < left) for clipped views: those
 * are kept as given and have zero area.
 */
export type Bounds = readonly [left: number, top: number, right: number, bottom: number];

/** Index of a node inside its own `UiTree.nodes` (pre-order). Only meaningful within one tree. */
export type NodeIndex = number;

/** Which format a hierarchy came from. */
export type HierarchyDialect = 'appium-uia2' | 'uiautomator-dump' | 'droidbot';

/**
 * One element of an Android view hierarchy, with every attribute the device gave. A
 * missing attribute is `''` (strings) or `false` (flags), never undefined.
 */
export interface UiNode {
  /** Position in `UiTree.nodes` (pre-order). */
  readonly index: NodeIndex;
  /** Parent's index, or -1 for a root. */
  readonly parent: NodeIndex;
  readonly children: NodeIndex[];
  readonly depth: number;
  /** Android class name, from the `class` attribute (not the XML tag). */
  readonly className: string;
  readonly packageName: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
  readonly hint: string;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly clickable: boolean;
  readonly longClickable: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly scrollable: boolean;
  readonly selected: boolean;
  readonly password: boolean;
  /**
   * Accepts typed text: the `editable` attribute when the source has one (DroidBot,
   * AndroidWorld), else an EditText-like class (EditText, AutoCompleteTextView, …) or an
   * `ACTION_SET_TEXT` accessibility action (Appium `includeA11yActionsInPageSource`).
   */
  readonly editable: boolean;
  /** `displayed` (Appium) / `visible-to-user` (uiautomator2 variants); true when absent. */
  readonly displayed: boolean;
  readonly bounds: Bounds;
  /** Sibling index as the device reported it (`index` attribute), or the position among siblings. */
  readonly siblingIndex: number;
  /** Which window (root) the node belongs to: index into `UiTree.roots`. */
  readonly window: number;
  /** Index-free xpath, e.g. `/android.widget.FrameLayout/android.widget.ListView/android.widget.TextView`. */
  readonly xpath: string;
  /**
   * Stable fingerprint (8 hex digits) from resource-id, class, index-free xpath, text and
   * content-desc; for editable fields the hint replaces the text, so typing into a field
   * keeps its fingerprint. Equal nodes (repeated list rows) share a fingerprint.
   */
  readonly fingerprint: string;
  /** Accessibility actions when the page source includes them (Appium `includeA11yActionsInPageSource`). */
  readonly actions: readonly string[];
  /** True for nodes the device marked `NAF="true"` (not accessibility friendly). */
  readonly naf: boolean;
}

/** A parsed hierarchy. Immutable by convention; perception builds new structures beside it. */
export interface UiTree {
  readonly dialect: HierarchyDialect;
  readonly nodes: readonly UiNode[];
  /** Root node indices, one per window, in the order the device listed them. */
  readonly roots: readonly NodeIndex[];
  /** Screen size when the source gives it (Appium root width/height), else derived from bounds. */
  readonly width: number;
  readonly height: number;
  readonly rotation: number;
  /** Foreground package: from the observation when known, else the first non-systemui root's package. */
  readonly packageName: string;
  /** Foreground activity when the observation gave it, else ''. */
  readonly activity: string;
  /** The foreground task's activity stack, top first (`package/activity`), when the observation gave it (DroidBot states record it), else []. */
  readonly activityStack: readonly string[];
  /** True when the hierarchy has no usable nodes (some apps expose none): a VLM gate reason. */
  readonly empty: boolean;
  /** Texts of toasts present in the hierarchy (`android.widget.Toast`). */
  readonly toasts: readonly string[];
}

/** Short id a kept node gets after reduction: `n` + 4 hex digits (more on collision). */
export type NodeId = Brand<string, 'NodeId'>;
