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

/** The folded description without the part that already is the label. */
function extraDescription(description: string, label: string): string {
  if (!description || description === label) return '';
  const prefix = `${label} · `;
  return description.startsWith(prefix) ? description.slice(prefix.length) : description;
}

/** What `renderUnitLine` reads of a unit (a `ControlUnit` or its JSON form). */
export type UnitLineInput = Pick<ControlUnit, 'type' | 'label' | 'state' | 'orientation' | 'occluded'> & { readonly id: string; readonly affordances: readonly string[] };

/** One line per unit: `[n3f2a] toggle "Wi-Fi" checked`. */
export function renderUnitLine(unit: UnitLineInput): string {
  const parts = [`[${unit.id}]`, unit.type];
  if (unit.label) parts.push(quote(unit.label));
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

/**
 * The planner's text (DESIGN.md §8): an `app` line (package, activity, screen size),
 * toasts, then one section per block — surfaces first — with its typed units and the
 * text-only nodes in document order, then the pseudo units. Deterministic: the same
 * input gives the same text, byte for byte.
 */
export function renderView(input: ViewInput): string {
  const { tree, reduced, layout, units, blocks } = input;
  const lines: string[] = [];
  const header = [`app ${tree.packageName || '(unknown)'}`];
  if (tree.activity) header.push(`activity ${tree.activity}`);
  header.push(`screen ${tree.width}x${tree.height}`);
  if (tree.empty) header.push('EMPTY (no usable nodes)');
  lines.push(header.join(' '));
  for (const toast of tree.toasts) lines.push(`toast ${quote(toast)}`);
  const unitById = new Map(units.map((unit) => [unit.id as string, unit]));
  const entries = new Map<BlockId, string[]>();
  for (const kept of reduced.nodes) {
    const root = layout.rootOf[kept.node]!;
    const blockId = layout.idOf.get(root);
    if (!blockId) continue;
    const list = entries.get(blockId) ?? entries.set(blockId, []).get(blockId)!;
    if (isUnitNode(kept)) {
      const unit = unitById.get(kept.id);
      if (!unit) continue;
      let line = renderUnitLine(unit);
      const extra = extraDescription(kept.description, unit.label);
      if (extra) line += ` — ${quote(extra)}`;
      list.push(line);
    } else {
      list.push(`text ${quote(nodeText(tree.nodes[kept.node]!))}${kept.description ? ` — ${quote(kept.description)}` : ''}`);
    }
  }
  const ordered = [...blocks.filter((block) => block.surface), ...blocks.filter((block) => !block.surface)];
  for (const block of ordered) {
    const body = entries.get(block.id) ?? [];
    if (body.length === 0) continue;
    lines.push(`${block.surface ? 'surface' : 'block'} ${block.id}${block.label ? ` ${quote(block.label)}` : ''}`);
    for (const line of body) lines.push(`  ${line}`);
  }
  const pseudo = units.filter((unit) => unit.tap === null);
  if (pseudo.length > 0) lines.push(`always ${pseudo.map((unit) => `[${unit.id}] ${unit.label}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
