import type { ControlUnit } from '../perception/control-unit.js';
import type { UiTree } from '../ui/ui-tree.js';

/**
 * Screens this alike (Jaccard over their nodes' distinct fingerprints) are the same page:
 * the threshold under which another step's after screen counts as another effect in the
 * wrong-effect control, so a page the memory knows is never one that control would donate.
 */
export const samePageSimilarity = 0.9;

/** Transitions kept per control (the oldest go first): recall stays linear in the steps. */
const maxPerControl = 32;

/**
 * Screens less alike than this are different pages outright (a page the control opened, not
 * its own page re-drawn): only such an effect is remembered by the page reached, whatever
 * page the control was acted on.
 */
export const otherPageSimilarity = 0.5;
/** Pages reached kept per app screen (package and activity; the oldest go first). */
const maxPagesPerScreen = 64;

/**
 * When a control's moves from a page like this one disagree, the effect seen now is known
 * only if it is what the control did at least this often (three moves in four) and at
 * least `minAgreeing` times: one odd move (the drawer opened scrolled, a slow page caught
 * half drawn) does not make a control that repeats its effect unknown, and one agreeing
 * move among others is no record.
 */
const majorityShare = 0.75;
const minAgreeing = 2;

/** How often a control's earlier moves from a page like this one had this effect (`same`) and another (`other`). */
export interface Recalled {
  /** 0 when the effect is not known: never seen, or outvoted (not three in four, or seen only once among others). */
  readonly same: number;
  readonly other: number;
  /**
   * True when the control was never acted on a page like this one, and the counts are its
   * moves from other pages to pages like the one reached, which no other control reached.
   */
  readonly elsewhere?: boolean;
}

/** What `verifyUnitStep` asks of a memory: how often this control led from this page to this one, and elsewhere. */
export interface TransitionRecall {
  /**
   * How many verified earlier steps acted on the same control on a page like `before`
   * and reached a page like `after` (`same`), and how many reached another (`other`);
   * `same` is 0 unless it is every one of them, or three in four and two at least. On a
   * page where the control was never acted, its moves from any page to another page
   * (`elsewhere`), when only this control ever reached a page like `after`.
   */
  recall(unit: ControlUnit, before: UiTree, after: UiTree): Recalled;
}

interface Remembered {
  readonly before: ReadonlySet<string>;
  /** The page reached, or, for a change within the page, the nodes that came (`+`) and went (`-`). */
  readonly effect: ReadonlySet<string>;
  /** True when the effect is another page outright (`otherPageSimilarity`), so the page reached says what the move did. */
  readonly toOtherPage: boolean;
  count: number;
}

/** A page some verified step reached from another page, and the controls that reached it. */
interface PageReached {
  readonly prints: ReadonlySet<string>;
  readonly controls: Set<string>;
}

/** What a step did: the page it reached, or the nodes that came and went when it stayed on its page (`alike`: the two pages' similarity). */
function effectOf(from: ReadonlySet<string>, to: ReadonlySet<string>, alike: number): ReadonlySet<string> {
  if (alike < samePageSimilarity) return to;
  const changed = new Set<string>();
  for (const item of to) if (!from.has(item)) changed.add(`+${item}`);
  for (const item of from) if (!to.has(item)) changed.add(`-${item}`);
  return changed;
}

/** The control as the memory names it: its type, label and first member's id and class (not its place). */
function controlKey(unit: ControlUnit): string {
  const member = unit.members[0];
  return [unit.type, unit.label, member?.resourceId ?? '', member?.className ?? ''].join('\u0000');
}

/** Every move, or three in four and `minAgreeing` at least, had the effect. */
function agreed(same: number, other: number): boolean {
  return other === 0 || (same >= minAgreeing && same >= majorityShare * (same + other));
}

/** Of the remembered moves `counted` keeps, how many had `effect` (`same`) and how many another (`other`). */
function countEffects(list: readonly Remembered[], counted: (item: Remembered) => boolean, effect: ReadonlySet<string>): { same: number; other: number } {
  let [same, other] = [0, 0];
  for (const item of list) {
    if (!counted(item)) continue;
    if (similarity(item.effect, effect) >= samePageSimilarity) same += item.count;
    else other += item.count;
  }
  return { same, other };
}

/** The app screen a page belongs to: its package and activity. */
function screenKey(tree: UiTree): string {
  return `${tree.packageName}\u0000${tree.activity}`;
}

/**
 * The prints of a page as the memory compares them for a control whose label holds no digit:
 * each node's fingerprint fields with every number read as `#`. Numbers that tick on a page
 * (a counter, a score, a balance, a time) are not what such a control chooses, so they do not
 * tell its moves apart: Habitica's "Negative" takes a habit from −1 to −2 and the health from
 * 16 to 15, and the next time from −2 to −3 and 15 to 14 — one effect. A control named by a
 * number ("1" on a dial, "10 min") keeps the numbers: they are what it sets.
 */
function countFreePrints(tree: UiTree): Set<string> {
  const free = (text: string): string => text.replace(/\d+/g, '#');
  return new Set(tree.nodes.map((node) => `${node.resourceId}\u0000${node.xpath}\u0000${free(node.text)}\u0000${free(node.contentDesc)}`));
}

/** True when the memory reads `unit`'s pages without their numbers (`countFreePrints`): its label holds no digit. */
function readsWithoutNumbers(unit: ControlUnit): boolean {
  return !/\d/.test(unit.label);
}

/** The distinct fingerprints of a screen's nodes: a page as the memory and the wrong-effect control compare pages. */
export function pagePrints(tree: UiTree): Set<string> {
  return new Set(tree.nodes.map((node) => node.fingerprint));
}

/** Jaccard similarity of two fingerprint sets (1 for two empty ones). */
export function similarity(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const item of left) if (right.has(item)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * The transitions verified so far (docs/architecture.md §2.6): for each control, the
 * page it was acted on and the page it led to. A weak pass ("the screen changed") on a
 * control that led from this same page to this same page before (every time, or three
 * times in four and twice at least) is tied to the control by that record
 * (`known-transition`): another step's effect is another page. A change within the page
 * is told apart by the nodes that came and went, not by the page it stayed on. A control
 * acted on a page it was never acted on before is known by where it went from other pages
 * (`elsewhere`): when it led to another page like this one, and no other control ever
 * reached a page like it (a page many controls reach, a dial's minutes page after any hour,
 * names none of them). Pages are
 * compared by the distinct fingerprints of their nodes, with numbers read as `#` for a control
 * whose label holds no digit (`countFreePrints`); learned only from passes; the loop
 * keeps one per run, `verify-replay` one per replay (in recorded order, so a step is
 * judged only by the steps before it).
 */
export class TransitionMemory implements TransitionRecall {
  private readonly byControl = new Map<string, Remembered[]>();
  private readonly prints = new WeakMap<UiTree, ReadonlySet<string>>();
  private readonly freePrints = new WeakMap<UiTree, ReadonlySet<string>>();
  /**
   * Pages reached from other pages, by the package and activity of the screen reached: as
   * fingerprints (`exact`) and without numbers (`countFree`), so that a control's question is
   * asked of pages read as it reads them.
   */
  private readonly pagesReached = { exact: new Map<string, PageReached[]>(), countFree: new Map<string, PageReached[]>() };

  /** Records a verified step: `unit` acted on `before` led to `after`. */
  learn(unit: ControlUnit, before: UiTree, after: UiTree): void {
    const key = controlKey(unit);
    const list = this.byControl.get(key) ?? [];
    const [from, to] = [this.printsFor(unit, before), this.printsFor(unit, after)];
    const alike = similarity(from, to);
    const effect = effectOf(from, to, alike);
    const toOtherPage = alike < otherPageSimilarity;
    if (toOtherPage) {
      this.notePageReached(this.pagesReached.exact, key, after, this.printsOf(after));
      this.notePageReached(this.pagesReached.countFree, key, after, this.freePrintsOf(after));
    }
    const same = list.find((item) => similarity(item.before, from) >= samePageSimilarity && similarity(item.effect, effect) >= samePageSimilarity);
    if (same) {
      same.count += 1;
      return;
    }
    list.push({ before: from, effect, toOtherPage, count: 1 });
    if (list.length > maxPerControl) list.shift();
    this.byControl.set(key, list);
  }

  recall(unit: ControlUnit, before: UiTree, after: UiTree): Recalled {
    const key = controlKey(unit);
    const list = this.byControl.get(key);
    if (!list) return { same: 0, other: 0 };
    const [from, to] = [this.printsFor(unit, before), this.printsFor(unit, after)];
    const alike = similarity(from, to);
    const effect = effectOf(from, to, alike);
    if (effect.size === 0) return { same: 0, other: 0 };
    const { same, other } = countEffects(list, (item) => similarity(item.before, from) >= samePageSimilarity, effect);
    if (same + other === 0 && alike < otherPageSimilarity) return this.recallElsewhere(readsWithoutNumbers(unit) ? this.pagesReached.countFree : this.pagesReached.exact, key, list, after, to);
    return { same: agreed(same, other) ? same : 0, other };
  }

  /** A control never acted on a page like this one: its moves from other pages to other pages, when only it reached a page like `to` (read as it reads pages). */
  private recallElsewhere(registry: ReadonlyMap<string, PageReached[]>, key: string, list: readonly Remembered[], after: UiTree, to: ReadonlySet<string>): Recalled {
    const reached = (registry.get(screenKey(after)) ?? []).filter((page) => similarity(page.prints, to) >= samePageSimilarity);
    if (reached.length === 0 || reached.some((page) => page.controls.size > 1 || !page.controls.has(key))) return { same: 0, other: 0 };
    const { same, other } = countEffects(list, (item) => item.toOtherPage, to);
    return { same: agreed(same, other) ? same : 0, other, elsewhere: true };
  }

  private notePageReached(registry: Map<string, PageReached[]>, key: string, after: UiTree, to: ReadonlySet<string>): void {
    const bucketKey = screenKey(after);
    const pages = registry.get(bucketKey) ?? [];
    const known = pages.find((page) => similarity(page.prints, to) >= samePageSimilarity);
    if (known) {
      known.controls.add(key);
      return;
    }
    pages.push({ prints: to, controls: new Set([key]) });
    if (pages.length > maxPagesPerScreen) pages.shift();
    registry.set(bucketKey, pages);
  }

  /** How many verified earlier moves acted on the same control on a page like `before`, whatever they led to: 0 on a first visit. */
  visits(unit: ControlUnit, before: UiTree): number {
    const list = this.byControl.get(controlKey(unit));
    if (!list) return 0;
    const from = this.printsFor(unit, before);
    let count = 0;
    for (const item of list) if (similarity(item.before, from) >= samePageSimilarity) count += item.count;
    return count;
  }

  private printsOf(tree: UiTree): ReadonlySet<string> {
    return memoized(this.prints, tree, pagePrints);
  }

  /** A page as the memory compares it for `unit`'s moves: without numbers for a control not named by one (`countFreePrints`). */
  private printsFor(unit: ControlUnit, tree: UiTree): ReadonlySet<string> {
    return readsWithoutNumbers(unit) ? this.freePrintsOf(tree) : this.printsOf(tree);
  }

  private freePrintsOf(tree: UiTree): ReadonlySet<string> {
    return memoized(this.freePrints, tree, countFreePrints);
  }
}

/** `read(tree)`, worked out once per tree and kept in `cache`. */
function memoized(cache: WeakMap<UiTree, ReadonlySet<string>>, tree: UiTree, read: (tree: UiTree) => Set<string>): ReadonlySet<string> {
  let found = cache.get(tree);
  if (!found) {
    found = read(tree);
    cache.set(tree, found);
  }
  return found;
}
