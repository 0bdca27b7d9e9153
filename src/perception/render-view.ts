import type { UiTree } from '../ui/ui-tree.js';
import type { Block, BlockId, ControlUnit } from './control-unit.js';
import { isUnitNode, type BlockLayout } from './build-blocks.js';
import { nodeText, type ReducedTree } from './reduce-tree.js';

const maxText = 80;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > maxText ? `${flat.slice(0, maxText - 1)}…` : flat;
  return JSON.stringify(cut);
}

/** A package or activity name as is; anything else a dump put there (spaces, newlines, markup) quoted, so it stays on its line. */
function nameToken(name: string): string {
  return /^[A-Za-z0-9_.$/-]+$/.test(name) ? name : JSON.stringify(name);
}

/** `android.widget.ImageButton` → `ImageButton`. */
function shortClassName(className: string): string {
  return className.slice(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1) || 'View';
}

/** The folded description without the part that already is the label. */
function extraDescription(description: string, label: string): string {
  if (!description || description === label) return '';
  const prefix = `${label} · `;
  return description.startsWith(prefix) ? description.slice(prefix.length) : description;
}

/** What `renderUnitLine` reads of a unit (a `ControlUnit` or its JSON form). */
export type UnitLineInput = Pick<ControlUnit, 'type' | 'label' | 'state' | 'orientation' | 'occluded' | 'offScreen'> & {
  readonly id: string;
  readonly affordances: readonly string[];
  /** Short class name, shown for a unit without a label so that an icon is at least named by kind. */
  readonly widget?: string;
};

/** One line per unit: `[n3f2a] toggle "Wi-Fi" checked`. */
export function renderUnitLine(unit: UnitLineInput): string {
  const parts = [`[${unit.id}]`, unit.type];
  if (unit.label) parts.push(quote(unit.label));
  else if (unit.widget) parts.push(`(${unit.widget})`);
  const state = unit.state;
  if (unit.type === 'fill') {
    parts.push(`value=${quote(state.password && state.value ? '•••' : state.value ?? '')}`);
    if (state.hint && state.hint !== unit.label) parts.push(`hint=${quote(state.hint)}`);
    if (state.focused) parts.push('focused');
    if (state.password) parts.push('password');
  }
  if (state.checked !== undefined) parts.push(state.checked ? 'checked' : 'unchecked');
  if (state.selected) parts.push('selected');
  if (!state.enabled) parts.push('disabled');
  if (unit.orientation) parts.push(unit.orientation);
  if (unit.occluded) parts.push('covered');
  if (unit.offScreen) parts.push('off-screen');
  if (unit.type !== 'long-press' && unit.affordances.includes('long-clickable')) parts.push('long-press');
  return parts.join(' ');
}

/** Everything `renderView` needs; `perceive` passes its own pieces. */
export interface ViewInput {
  readonly tree: UiTree;
  readonly reduced: ReducedTree;
  readonly layout: BlockLayout;
  readonly units: readonly ControlUnit[];
  readonly blocks: readonly Block[];
}

/** One line of a block in the planner view: a typed unit, or a text-only node. */
export type PlannerViewItem =
  | (UnitLineInput & { readonly kind: 'unit'; readonly description?: string })
  | { readonly kind: 'text'; readonly text: string; readonly description?: string };

/** The planner view as data (docs/architecture.md §2.4): what `renderView` prints, for JSON consumers. */
export interface PlannerView {
  readonly app: { readonly package: string; readonly activity: string; readonly screen: readonly [number, number]; readonly empty: boolean };
  readonly toasts: readonly string[];
  /**
   * Surfaces first, then the other blocks, each in document order; blocks with nothing to
   * show are left out. `more` counts the rows the row budget left out of the block.
   */
  readonly blocks: readonly { readonly id: string; readonly label: string; readonly surface: boolean; readonly items: readonly PlannerViewItem[]; readonly more?: number }[];
  /** The pseudo units (navigate, finish), always available; the planner's system prompt names them, so the text leaves them out. */
  readonly always: readonly { readonly id: string; readonly type: string; readonly label: string }[];
  /** Units on the screen the row budget left out of the view (the planner cannot see them). */
  readonly hiddenUnits: readonly string[];
}

/** How `buildPlannerView` fits a dense screen into its row budget. */
export interface ViewBudget {
  /** Rows shown at most (block headers not counted). */
  readonly rows: number;
  /** Lower-case words: a row naming one is kept before plain rows. */
  readonly focus: readonly string[];
}

type ViewBlock = PlannerView['blocks'][number];

/** Rows kept before any other: what lets the planner act on a surface, scroll, type, or reach a task word. */
function rowPriority(item: PlannerViewItem, surface: boolean, focus: readonly string[]): number {
  if (surface) return 0;
  if (item.kind === 'unit' && (item.type === 'scroll' || item.type === 'fill' || item.state.focused)) return 0;
  const text = `${item.kind === 'unit' ? item.label : item.text} ${item.description ?? ''}`.toLowerCase();
  if (focus.some((word) => text.includes(word))) return 1;
  return item.kind === 'unit' ? 2 : 3;
}

/**
 * Leaves rows out of `blocks` until at most `budget.rows` remain: lowest priority first
 * (text-only rows, then plain units), latest in document order first, so the top of each
 * list stays. Kept rows keep their order; each block counts what it lost in `more`.
 */
function fitRows(blocks: readonly ViewBlock[], budget: ViewBudget): { blocks: ViewBlock[]; hidden: string[] } {
  const rows = blocks.flatMap((block, blockIndex) => block.items.map((item, itemIndex) => ({ blockIndex, itemIndex, priority: rowPriority(item, block.surface, budget.focus) })));
  if (rows.length <= budget.rows) return { blocks: [...blocks], hidden: [] };
  const ranked = [...rows].sort((a, b) => a.priority - b.priority || a.blockIndex - b.blockIndex || a.itemIndex - b.itemIndex);
  const kept = new Set(ranked.slice(0, Math.max(0, budget.rows)).map((row) => `${row.blockIndex}/${row.itemIndex}`));
  const hidden: string[] = [];
  const fitted = blocks.map((block, blockIndex) => {
    const items = block.items.filter((item, itemIndex) => {
      if (kept.has(`${blockIndex}/${itemIndex}`)) return true;
      if (item.kind === 'unit') hidden.push(item.id);
      return false;
    });
    const more = block.items.length - items.length;
    return more > 0 ? { ...block, items, more } : block;
  });
  return { blocks: fitted, hidden };
}

/** Lower-case words of `text` long enough to pick rows by (the view's focus words). */
export function viewFocusWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 4 && !focusStopWords.has(word)))];
}

const focusStopWords = new Set(['open', 'turn', 'then', 'that', 'this', 'with', 'from', 'into', 'your', 'what', 'when', 'which', 'there', 'their', 'make', 'sure', 'change', 'please', 'called', 'named', 'about']);

/**
 * Builds the planner view as data: the app, toasts, blocks (surfaces first) with their
 * typed units and text-only nodes in document order, and the pseudo units; past the row
 * budget (default: none) rows are left out by {@link fitRows}.
 */
export function buildPlannerView(input: ViewInput, budget?: ViewBudget): PlannerView {
  const { tree, reduced, layout, units, blocks } = input;
  const unitById = new Map(units.map((unit) => [unit.id as string, unit]));
  const entries = new Map<BlockId, PlannerViewItem[]>();
  for (const kept of reduced.nodes) {
    const root = layout.rootOf[kept.node]!;
    const blockId = layout.idOf.get(root);
    if (!blockId) continue;
    const list = entries.get(blockId) ?? entries.set(blockId, []).get(blockId)!;
    if (isUnitNode(kept)) {
      const unit = unitById.get(kept.id);
      if (!unit) continue;
      const extra = extraDescription(kept.description, unit.label);
      list.push({
        kind: 'unit',
        id: unit.id,
        type: unit.type,
        label: unit.label,
        state: unit.state,
        affordances: unit.affordances,
        ...(!unit.label && unit.members[0] ? { widget: shortClassName(unit.members[0].className) } : {}),
        ...(unit.orientation ? { orientation: unit.orientation } : {}),
        ...(unit.occluded ? { occluded: true } : {}),
        ...(unit.offScreen ? { offScreen: true } : {}),
        ...(extra ? { description: extra } : {}),
      });
    } else {
      list.push({ kind: 'text', text: nodeText(tree.nodes[kept.node]!), ...(kept.description ? { description: kept.description } : {}) });
    }
  }
  const ordered = [...blocks.filter((block) => block.surface), ...blocks.filter((block) => !block.surface)];
  const shown = ordered
    .map((block) => ({ id: block.id as string, label: block.label, surface: block.surface, items: entries.get(block.id) ?? [] }))
    .filter((block) => block.items.length > 0);
  const fitted = budget ? fitRows(shown, budget) : { blocks: shown, hidden: [] };
  return {
    app: { package: tree.packageName, activity: tree.activity, screen: [tree.width, tree.height], empty: tree.empty },
    toasts: tree.toasts,
    blocks: fitted.blocks,
    always: units.filter((unit) => unit.tap === null).map((unit) => ({ id: unit.id as string, type: unit.type, label: unit.label })),
    hiddenUnits: fitted.hidden,
  };
}

/**
 * The planner's text (docs/architecture.md §2.4): an `app` line (package, activity), toasts, then one
 * section per block — surfaces first, headed by their label — with its typed units and
 * the text-only nodes in document order, and `… N more rows` where the row budget left
 * rows out. Left out because the planner cannot use them: block ids (no reply names a
 * block), the screen size (the view has no coordinates) and the pseudo units (the
 * system prompt names them). Deterministic: the same input gives the same text, byte for
 * byte. `buildPlannerView` gives the same as data.
 */
export function renderView(input: ViewInput | PlannerView): string {
  const view = 'app' in input ? input : buildPlannerView(input);
  const lines: string[] = [];
  const header = [`app ${view.app.package ? nameToken(view.app.package) : '(unknown)'}`];
  if (view.app.activity) header.push(`activity ${nameToken(view.app.activity)}`);
  if (view.app.empty) header.push('EMPTY (no usable nodes)');
  lines.push(header.join(' '));
  for (const toast of view.toasts) lines.push(`toast ${quote(toast)}`);
  for (const block of view.blocks) {
    const title = block.label ? quote(block.label) : '';
    lines.push(`${block.surface ? 'surface' : 'block'}${title ? ` ${title}` : ''}`);
    for (const item of block.items) {
      // A text row that only repeats the block's title (a page's heading) says nothing new.
      if (item.kind === 'text' && !item.description && title !== '' && quote(item.text) === title) continue;
      const head = item.kind === 'unit' ? renderUnitLine(item) : `text ${quote(item.text)}`;
      // Rows are not indented: the block and surface lines head them, and an indent costs a token a row.
      lines.push(`${head}${item.description ? ` — ${quote(item.description)}` : ''}`);
    }
    if (block.more) {
      const scrolls = block.items.some((item) => item.kind === 'unit' && item.type === 'scroll');
      lines.push(`… ${block.more} more row${block.more === 1 ? '' : 's'}${scrolls ? ', scroll to bring them up' : ' not shown'}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
