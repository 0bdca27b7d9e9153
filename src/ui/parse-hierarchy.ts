import { stableHash, stableHashHex } from '../util/stable-hash.js';
import type { Result } from '../util/result.js';
import { boundsArea, emptyBounds, parseBounds } from './bounds.js';
import { splitComponentName } from './component-name.js';
import { decodeDumpBytes } from './decode-dump-bytes.js';
import { droidBotViewBounds, maxHierarchyDepth, orderDroidBotState } from './droidbot-state.js';
import { HierarchyParseError } from './hierarchy-parse-error.js';
import { scanXmlElements, type XmlAttributes } from './scan-xml-elements.js';
import type { Bounds, HierarchyDialect, NodeIndex, UiNode, UiTree } from './ui-tree.js';

/** What the observation knows besides the hierarchy text. */
export interface ParseHierarchyOptions {
  /** Foreground package (from the device); overrides the one derived from the tree. */
  readonly packageName?: string;
  /** Foreground activity (from the device). */
  readonly activity?: string;
  /** The activity stack of the foreground task, top first, as `package/activity` (DroidBot records it). */
  readonly activityStack?: readonly string[];
  /** Name used in error messages, e.g. the file path. Default `hierarchy`. */
  readonly sourceName?: string;
}

/** Package of the system bars and notification shade. */
export const systemUiPackage = 'com.android.systemui';

const toastClass = 'android.widget.Toast';
/** Packages of on-screen keyboards (IME windows), which are never the foreground app. */
const keyboardPackage = /inputmethod|keyboard|\.ime(\.|$)/i;

/** Classes that accept typed text when the source has no `editable` attribute. */
export function isEditableClass(className: string): boolean {
  return className.endsWith('EditText') || className.endsWith('AutoCompleteTextView') || className.endsWith('SearchView$SearchAutoComplete');
}

/**
 * A node under construction: parsers fill the attribute fields, `buildTree` then sets
 * `index`, `window`, `xpath` and `fingerprint` in place (one object shape throughout).
 */
interface RawNode {
  index: NodeIndex;
  window: number;
  xpath: string;
  fingerprint: string;
  parent: NodeIndex;
  children: NodeIndex[];
  depth: number;
  className: string;
  packageName: string;
  resourceId: string;
  text: string;
  contentDesc: string;
  hint: string;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  longClickable: boolean;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  password: boolean;
  editable: boolean;
  displayed: boolean;
  bounds: Bounds;
  siblingIndex: number;
  actions: readonly string[];
  naf: boolean;
}

/**
 * Parses a UI hierarchy into a `UiTree`, detecting the dialect: Appium UiAutomator2 page
 * source (modern `<hierarchy index="0" class="hierarchy" …>` and legacy
 * `<hierarchy rotation="0">`, elements named by class), `adb shell uiautomator dump`
 * (`<node …>` elements, with or without display-id / visible-to-user / drawing-order /
 * hint / NAF) and DroidBot JSON states (`views[]` with parent/children indices). The
 * node class comes from the `class` attribute, not the tag. Missing attributes become
 * '' / false (`displayed` is true when absent). Nodes are in pre-order. Bytes are decoded
 * first (UTF-8 or UTF-16, by byte-order mark; see `decodeDumpBytes`). Trees of any depth
 * are read without recursion.
 *
 * @throws HierarchyParseError for malformed or truncated XML, input that is neither XML
 *   nor JSON (a gzip or zip file, a screenshot, the error uiautomator prints when it cannot
 *   read the screen are named as such), UTF-16 text read as UTF-8, bounds not in
 *   `[l,t][r,b]` form or beyond 32 bits, and a DroidBot state that does not hold together
 *   (no `views`, a field of the wrong type, duplicate ids, a child that is missing or has
 *   two parents, a cycle);
 *   the message has the source name, line:column and an excerpt, or the view's path
 *   (`views[12].bounds`). Inverted bounds (a view scrolled partly off screen) are kept
 *   as given in both formats, with zero area. A hierarchy with no nodes is not an
 *   error: it gives a tree with `empty: true`.
 */
export function parseHierarchy(input: string | Uint8Array, options: ParseHierarchyOptions = {}): UiTree {
  const sourceName = options.sourceName ?? 'hierarchy';
  const source = typeof input === 'string' ? input : decodeDumpBytes(input).text;
  const other = otherFileKind(input, source);
  // A binary file's first characters say nothing on a terminal: only a text one is quoted.
  if (other) throw new HierarchyParseError({ sourceName, ...(other.bytes === undefined ? { source, offset: 0 } : {}), problem: other.problem, hint: other.hint });
  const nul = source.indexOf('\u0000');
  if (nul !== -1 && nul < 64) {
    throw new HierarchyParseError({
      sourceName, source, offset: nul,
      problem: 'the text holds NUL characters: it looks like UTF-16 read as UTF-8',
      hint: 'Pass the file\'s bytes (parseHierarchy decodes UTF-16 and UTF-8 with or without a byte-order mark), or re-save the dump as UTF-8.',
    });
  }
  let start = 0;
  while (start < source.length && /[\s\ufeff]/.test(source[start]!)) start++;
  const first = source[start];
  if (first === '{') return parseDroidBotState(source, sourceName, options);
  if (first !== '<') {
    throw new HierarchyParseError({
      sourceName,
      problem: first === undefined ? 'the input is empty' : 'the input is neither XML (starting with `<`) nor a DroidBot JSON state (starting with `{`)',
      hint: 'Pass the text of a UI hierarchy dump: Appium page source, `adb shell uiautomator dump` output, or a DroidBot state JSON.',
      source,
      offset: start,
    });
  }
  return parseXmlHierarchy(source, sourceName, options);
}

const screenshotHint = 'Pass the UI hierarchy captured with the screen (Appium page source, `adb shell uiautomator dump`, or a DroidBot state JSON), not its picture.';

/**
 * Files that get passed for a dump by mistake: their first bytes, and the same start as it
 * reads once decoded as UTF-8 by a caller (a byte over 0x7f that is no UTF-8 reads U+FFFD,
 * so a JPEG is known there only by its JFIF or Exif mark).
 */
const otherFiles: readonly { readonly bytes?: readonly number[]; readonly text: RegExp; readonly problem: string; readonly hint: string }[] = [
  { bytes: [0x1f, 0x8b, 0x08], text: /^\u001f\ufffd\u0008/, problem: 'the input is gzip-compressed, not a UI hierarchy dump', hint: 'Decompress it first (`gunzip FILE.gz`) and pass the dump it holds.' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], text: /^PK\u0003\u0004/, problem: 'the input is a zip archive, not a UI hierarchy dump', hint: 'Extract it first and pass the dump files it holds (or their folder, to commands that take one).' },
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a], text: /^\ufffdPNG\r\n/, problem: 'the input is a PNG image (a screenshot?), not a UI hierarchy dump', hint: screenshotHint },
  { bytes: [0xff, 0xd8, 0xff], text: /^\ufffd{3}[^]{0,8}(JFIF|Exif)/, problem: 'the input is a JPEG image (a screenshot?), not a UI hierarchy dump', hint: screenshotHint },
  // What `uiautomator dump` prints instead of a dump when it cannot read the screen, redirected into the file.
  { text: /^\s*ERROR: /, problem: 'the input is the error uiautomator prints when it cannot dump the screen, not a dump', hint: 'Capture the screen again: uiautomator fails while an animation runs or a secure window is shown.' },
];

/** The kind of file `input` is when it is one of `otherFiles`: by its bytes when given bytes, else by its text. */
function otherFileKind(input: string | Uint8Array, source: string): (typeof otherFiles)[number] | undefined {
  const head = source.slice(0, 32);
  return otherFiles.find((other) =>
    typeof input !== 'string' && other.bytes !== undefined ? other.bytes.every((byte, index) => input[index] === byte) : other.text.test(head));
}

/** `parseHierarchy` that returns a Result instead of throwing `HierarchyParseError` (other errors still throw). */
export function safeParseHierarchy(source: string | Uint8Array, options: ParseHierarchyOptions = {}): Result<UiTree, HierarchyParseError> {
  try {
    return { success: true, value: parseHierarchy(source, options) };
  } catch (error) {
    if (HierarchyParseError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

function flag(attributes: XmlAttributes, name: string): boolean {
  return attributes[name] === 'true';
}

function parseXmlHierarchy(source: string, sourceName: string, options: ParseHierarchyOptions): UiTree {
  const where: SourceRef = { sourceName, source };
  const nodes: RawNode[] = [];
  const roots: NodeIndex[] = [];
  const stack: NodeIndex[] = [];
  let rootAttributes: XmlAttributes | undefined;
  let dialect: HierarchyDialect | undefined;
  let depth = 0;
  scanXmlElements(source, sourceName, {
    open: (name, attributes, offset) => {
      depth++;
      if (depth === 1) {
        requireHierarchyRoot(where, name, offset);
        rootAttributes = attributes;
        if (attributes['class'] === 'hierarchy' || attributes['index'] !== undefined) dialect = 'appium-uia2';
        return;
      }
      requireDepth(where, depth - 1, offset);
      dialect ??= name === 'node' ? 'uiautomator-dump' : 'appium-uia2';
      const parent = stack.length > 0 ? stack[stack.length - 1]! : -1;
      const siblingCount = parent === -1 ? roots.length : nodes[parent]!.children.length;
      const index = nodes.length;
      nodes.push(rawNode(name, attributes, { parent, depth: depth - 2, siblingCount, bounds: elementBounds(where, name, attributes, offset) }));
      if (parent === -1) roots.push(index);
      else nodes[parent]!.children.push(index);
      stack.push(index);
    },
    close: () => {
      if (depth > 1) stack.pop();
      depth--;
    },
  });
  const width = numberAttribute(rootAttributes, 'width');
  const height = numberAttribute(rootAttributes, 'height');
  return buildTree({
    dialect: dialect ?? (rootAttributes?.['class'] === 'hierarchy' ? 'appium-uia2' : 'uiautomator-dump'),
    nodes,
    roots,
    width,
    height,
    rotation: numberAttribute(rootAttributes, 'rotation') ?? 0,
    options,
  });
}

/** The text being parsed, for error positions and excerpts. */
interface SourceRef {
  readonly sourceName: string;
  readonly source: string;
}

/** Throws unless the document's root element is `<hierarchy>`. */
function requireHierarchyRoot(where: SourceRef, name: string, offset: number): void {
  if (name === 'hierarchy') return;
  throw new HierarchyParseError({
    ...where, offset,
    problem: `the root element is <${name}>, not <hierarchy>`,
    hint: 'Pass an Android UI hierarchy (Appium page source or `adb shell uiautomator dump`), not another XML document.',
  });
}

/** Throws when elements nest deeper than {@link maxHierarchyDepth}. */
function requireDepth(where: SourceRef, depth: number, offset: number): void {
  if (depth <= maxHierarchyDepth) return;
  throw new HierarchyParseError({
    ...where, offset,
    problem: `the elements nest deeper than ${maxHierarchyDepth} levels (no device produces that)`,
    hint: 'The dump is damaged or hostile; re-capture it from the device.',
  });
}

/** An element's `bounds`, empty when it has none; throws on bounds that do not parse. */
function elementBounds(where: SourceRef, name: string, attributes: XmlAttributes, offset: number): Bounds {
  const boundsText = attributes['bounds'];
  if (boundsText === undefined) return emptyBounds;
  const parsed = parseBounds(boundsText);
  if (parsed) return parsed;
  throw new HierarchyParseError({
    ...where, offset: where.source.indexOf('bounds=', offset),
    problem: `invalid bounds "${boundsText}" on <${name}> (expected [left,top][right,bottom] with integers within 32 bits)`,
    hint: 'The dump is damaged or was edited by hand; re-capture it from the device.',
  });
}

/** One element of either XML dialect as a node; `buildTree` fills in index, window, xpath and fingerprint. */
function rawNode(name: string, attributes: XmlAttributes, place: { parent: NodeIndex; depth: number; siblingCount: number; bounds: Bounds }): RawNode {
  const className = attributes['class'] ?? (name === 'node' ? '' : name);
  const indexText = attributes['index'];
  const editableAttribute = attributes['editable'];
  const actionsText = attributes['actions'];
  const visible = attributes['displayed'] ?? attributes['visible-to-user'];
  return {
    index: 0,
    window: 0,
    xpath: '',
    fingerprint: '',
    parent: place.parent,
    children: [],
    depth: place.depth,
    className,
    packageName: attributes['package'] ?? '',
    resourceId: attributes['resource-id'] ?? '',
    text: attributes['text'] ?? '',
    contentDesc: attributes['content-desc'] ?? '',
    hint: attributes['hint'] ?? '',
    checkable: flag(attributes, 'checkable'),
    checked: flag(attributes, 'checked'),
    clickable: flag(attributes, 'clickable'),
    longClickable: flag(attributes, 'long-clickable'),
    enabled: flag(attributes, 'enabled'),
    focusable: flag(attributes, 'focusable'),
    focused: flag(attributes, 'focused'),
    scrollable: flag(attributes, 'scrollable'),
    selected: flag(attributes, 'selected'),
    password: flag(attributes, 'password'),
    editable: editableAttribute !== undefined ? editableAttribute === 'true' : isEditableClass(className) || (actionsText?.includes('SET_TEXT') ?? false),
    displayed: visible === undefined ? true : visible === 'true',
    bounds: place.bounds,
    siblingIndex: indexText !== undefined && /^\d+$/.test(indexText) ? Number(indexText) : place.siblingCount,
    actions: actionsText ? actionsText.split(',').map((action) => action.trim()).filter(Boolean) : [],
    naf: flag(attributes, 'NAF'),
  };
}

function numberAttribute(attributes: XmlAttributes | undefined, name: string): number | undefined {
  const text = attributes?.[name];
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
}

function parseDroidBotState(source: string, sourceName: string, options: ParseHierarchyOptions): UiTree {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const positionMatch = /position (\d+)/.exec(message);
    const offset = positionMatch ? Number(positionMatch[1]) : source.length;
    throw new HierarchyParseError({
      sourceName, source, offset, cause: error,
      problem: `invalid JSON (${message})`,
      hint: 'A DroidBot state must be complete JSON; re-export it (the file may be truncated).',
    });
  }
  const ordered = orderDroidBotState(data);
  if ('problem' in ordered) {
    throw new HierarchyParseError({
      sourceName,
      problem: `${ordered.path}: ${ordered.problem}`,
      hint: 'Expected a DroidBot device state: an object with `views` (view objects with a unique `temp_id`, `parent` (-1 for a root), `children` ids and `bounds` [[left,top],[right,bottom]]); the file is damaged or was edited by hand.',
    });
  }
  const state = ordered.state;
  const nodes: RawNode[] = [];
  const roots: NodeIndex[] = [];
  const str = (value: string | null | undefined): string => value ?? '';
  for (const entry of ordered.views) {
    const view = entry.view;
    const className = str(view.class);
    const index = nodes.length;
    nodes.push({
      index: 0,
      window: 0,
      xpath: '',
      fingerprint: '',
      parent: entry.parent,
      children: [],
      depth: entry.depth,
      className,
      packageName: str(view.package),
      resourceId: str(view.resource_id),
      text: str(view.text),
      contentDesc: str(view.content_description),
      hint: str(view.hint),
      checkable: view.checkable === true,
      checked: view.checked === true,
      clickable: view.clickable === true,
      longClickable: view.long_clickable === true,
      enabled: view.enabled === true,
      focusable: view.focusable === true,
      focused: view.focused === true,
      scrollable: view.scrollable === true,
      selected: view.selected === true,
      password: view.is_password === true,
      editable: typeof view.editable === 'boolean' ? view.editable : isEditableClass(className),
      displayed: view.visible !== false,
      bounds: droidBotViewBounds(view),
      siblingIndex: entry.siblingIndex,
      actions: [],
      naf: false,
    });
    if (entry.parent === -1) roots.push(index);
    else nodes[entry.parent]!.children.push(index);
  }
  const { packageName: activityPackage, activity } = splitComponentName(str(state.foreground_activity));
  const merged: ParseHierarchyOptions = {
    ...options,
    ...(options.packageName === undefined && activityPackage ? { packageName: activityPackage } : {}),
    ...(options.activity === undefined && activity ? { activity } : {}),
    ...(options.activityStack === undefined && state.activity_stack ? { activityStack: state.activity_stack } : {}),
  };
  return buildTree({
    dialect: 'droidbot',
    nodes,
    roots,
    ...droidBotScreenSize(state.width ?? undefined, state.height ?? undefined, roots.map((root) => nodes[root]!.bounds)),
    rotation: 0,
    options: merged,
  });
}

/**
 * The screen size of a DroidBot state. DroidBot writes `width` and `height` as the device
 * reports its display, which on some devices is the natural landscape size (2340 x 1080)
 * while the views are laid out upright (a dialog down to y = 1502): when the windows fit
 * only the size turned, the size is turned, or every view below the recorded height would
 * lie off screen.
 */
function droidBotScreenSize(width: number | undefined, height: number | undefined, windows: readonly Bounds[]): { width: number | undefined; height: number | undefined } {
  if (!width || !height || width === height || windows.length === 0) return { width, height };
  const right = Math.max(...windows.map((bounds) => bounds[2]));
  const bottom = Math.max(...windows.map((bounds) => bounds[3]));
  const fits = right <= width && bottom <= height;
  const fitsTurned = right <= height && bottom <= width;
  return !fits && fitsTurned ? { width: height, height: width } : { width, height };
}

function buildTree(input: {
  dialect: HierarchyDialect;
  nodes: RawNode[];
  roots: NodeIndex[];
  width: number | undefined;
  height: number | undefined;
  rotation: number;
  options: ParseHierarchyOptions;
}): UiTree {
  const { nodes: raw, roots } = input;
  // The xpath hash continues FNV-1a from the parent's, so deep trees never hash long strings.
  const xpathHash = new Uint32Array(raw.length);
  const toasts: string[] = [];
  let usable = false;
  roots.forEach((root, window) => { raw[root]!.window = window; });
  for (let index = 0; index < raw.length; index++) {
    const node = raw[index]!;
    const step = `/${node.className || 'node'}`;
    const parent = node.parent === -1 ? undefined : raw[node.parent]!;
    node.index = index;
    node.xpath = parent ? parent.xpath + step : step;
    if (parent) node.window = parent.window;
    xpathHash[index] = stableHash(step, parent ? xpathHash[node.parent]! : undefined);
    const identity = node.editable ? node.hint : node.text;
    node.fingerprint = stableHashHex(`${node.resourceId}\u0000${node.className}\u0000${identity}\u0000${node.contentDesc}`, xpathHash[index]!);
    if (node.className === toastClass && node.text) toasts.push(node.text);
    if (!usable && boundsArea(node.bounds) > 0 && (node.clickable || node.longClickable || node.checkable || node.editable || node.scrollable || node.text || node.contentDesc)) usable = true;
  }
  const nodes: readonly UiNode[] = raw;
  let width = input.width ?? 0;
  let height = input.height ?? 0;
  if (!width || !height) {
    for (const root of roots) {
      const bounds = nodes[root]!.bounds;
      if (!input.width) width = Math.max(width, bounds[2]);
      if (!input.height) height = Math.max(height, bounds[3]);
    }
  }
  // The foreground app: the first window that is neither SystemUI nor an on-screen keyboard.
  const windows = roots.map((root) => nodes[root]!).filter((node) => node.packageName && node.packageName !== systemUiPackage);
  const firstApp = windows.find((node) => !keyboardPackage.test(node.packageName)) ?? windows[0];
  const anyPackage = nodes.find((node) => node.packageName)?.packageName ?? packageFromResourceIds(nodes);
  const packageName = input.options.packageName ?? firstApp?.packageName ?? (roots.length > 0 ? nodes[roots[0]!]!.packageName || anyPackage : '');
  return {
    dialect: input.dialect,
    nodes,
    roots,
    width,
    height,
    rotation: input.rotation,
    packageName,
    activity: input.options.activity ?? '',
    activityStack: input.options.activityStack ?? [],
    empty: !usable,
    toasts,
  };
}

/** Some converted dumps carry no `package` attributes: take the app from the first `pkg:id/name` resource-id. */
function packageFromResourceIds(nodes: readonly UiNode[]): string {
  for (const node of nodes) {
    const colon = node.resourceId.indexOf(':id/');
    if (colon > 0 && !node.resourceId.startsWith('android:')) return node.resourceId.slice(0, colon);
  }
  return '';
}
