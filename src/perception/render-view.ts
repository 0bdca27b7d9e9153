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
export type UnitLineInput = Pick<ControlUnit, 'type' | 'label' | 'state' | 'orientation' | 'occluded'> & {
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

/** The planner view as data (DESIGN.md §8): what `renderView` prints, for JSON consumers. */
export interface PlannerView {
  readonly app: { readonly package: string; readonly activity: string; readonly screen: readonly [number, number]; readonly empty: boolean };
  readonly toasts: readonly string[];
  /** Surfaces first, then the other blocks, each in document order; blocks with nothing to show are left out. */
  readonly blocks: readonly { readonly id: string; readonly label: string; readonly surface: boolean; readonly items: readonly PlannerViewItem[] }[];
  /** The pseudo units (navigate, finish), always available. */
  readonly always: readonly { readonly id: string; readonly type: string; readonly label: string }[];
}

/**
 * Builds the planner view as data: the app, toasts, blocks (surfaces first) with their
 * typed units and text-only nodes in document order, and the pseudo units.
 */
export function buildPlannerView(input: ViewInput): PlannerView {
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
        ...(extra ? { description: extra } : {}),
      });
    } else {
      list.push({ kind: 'text', text: nodeText(tree.nodes[kept.node]!), ...(kept.description ? { description: kept.description } : {}) });
    }
  }
  const ordered = [...blocks.filter((block) => block.surface), ...blocks.filter((block) => !block.surface)];
  return {
    app: { package: tree.packageName, activity: tree.activity, screen: [tree.width, tree.height], empty: tree.empty },
    toasts: tree.toasts,
    blocks: ordered
      .map((block) => ({ id: block.id as string, label: block.label, surface: block.surface, items: entries.get(block.id) ?? [] }))
      .filter((block) => block.items.length > 0),
    always: units.filter((unit) => unit.tap === null).map((unit) => ({ id: unit.id as string, type: unit.type, label: unit.label })),
  };
}

/**
 * The planner's text (DESIGN.md §8): an `app` line (package, activity, screen size),
 * toasts, then one section per block — surfaces first — with its typed units and the
 * text-only nodes in document order, then the pseudo units. Deterministic: the same
 * input gives the same text, byte for byte. `buildPlannerView` gives the same as data.
 */
export function renderView(input: ViewInput | PlannerView): string {
  const view = 'app' in input ? input : buildPlannerView(input);
  const lines: string[] = [];
  const header = [`app ${view.app.package ? nameToken(view.app.package) : '(unknown)'}`];
  if (view.app.activity) header.push(`activity ${nameToken(view.app.activity)}`);
  header.push(`screen ${view.app.screen[0]}x${view.app.screen[1]}`);
  if (view.app.empty) header.push('EMPTY (no usable nodes)');
  lines.push(header.join(' '));
  for (const toast of view.toasts) lines.push(`toast ${quote(toast)}`);
  for (const block of view.blocks) {
    lines.push(`${block.surface ? 'surface' : 'block'} ${block.id}${block.label ? ` ${quote(block.label)}` : ''}`);
    for (const item of block.items) {
      const head = item.kind === 'unit' ? renderUnitLine(item) : `text ${quote(item.text)}`;
      lines.push(`  ${head}${item.description ? ` — ${quote(item.description)}` : ''}`);
    }
  }
  if (view.always.length > 0) lines.push(`always ${view.always.map((unit) => `[${unit.id}] ${unit.label}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
