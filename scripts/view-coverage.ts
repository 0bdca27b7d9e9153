// Where an actionable element of a screen is in the planner's reduced view: the measuring
// scripts (measure-view-tokens, measure-observe-tokens) count it per element.
import type { Perception } from '../src/perception/perceive.js';
import type { UiTree } from '../src/ui/ui-tree.js';

/** Shown in the view; a system-bar element of another app's screen; left out by the row budget; missing. */
export type Coverage = 'present' | 'system-bar' | 'row-budget' | 'missing';

/** How to read a screen for `viewCoverage`. */
export interface CoverageRules {
  /** Which nodes are actionable: the walk up from an element stops at the nearest one. */
  readonly actionable: (tree: UiTree, index: number) => boolean;
  /** The unit ids the view's text shows; without it every unit the view does not hide counts as shown. */
  readonly shownIds?: ReadonlySet<string>;
}

/**
 * Where the element at `index` is in the view: through its own unit, an ancestor's up to the
 * nearest actionable one, or a descendant's. A list that scrolls holds its rows but does not
 * stand for them: only the element's own scroll unit counts.
 */
export function viewCoverage(perception: Perception, index: number, rules: CoverageRules): Coverage {
  const { tree } = perception;
  const unitOf = new Map<number, string>();
  const scrolls = new Set<string>();
  for (const unit of perception.units) {
    for (const member of unit.members) unitOf.set(member.node, unit.id);
    if (unit.type === 'scroll') scrolls.add(unit.id);
  }
  const hidden = new Set(perception.plannerView.hiddenUnits);
  const shown = (unit: string): boolean => rules.shownIds === undefined || rules.shownIds.has(unit);
  const found = (unit: string | undefined): Coverage | undefined => (unit === undefined ? undefined : hidden.has(unit) ? 'row-budget' : shown(unit) ? 'present' : undefined);
  for (let at = index; at >= 0; at = tree.nodes[at]?.parent ?? -1) {
    const unit = unitOf.get(at);
    const hit = at !== index && unit !== undefined && scrolls.has(unit) ? undefined : found(unit);
    if (hit) return hit;
    if (at !== index && rules.actionable(tree, at)) break;
  }
  const stack = [...(tree.nodes[index]?.children ?? [])];
  while (stack.length > 0) {
    const child = stack.pop()!;
    const unit = unitOf.get(child);
    const hit = unit !== undefined && scrolls.has(unit) ? undefined : found(unit);
    if (hit) return hit;
    stack.push(...(tree.nodes[child]?.children ?? []));
  }
  const node = tree.nodes[index];
  return node?.packageName === 'com.android.systemui' && tree.packageName !== 'com.android.systemui' ? 'system-bar' : 'missing';
}
