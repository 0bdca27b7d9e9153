import type { UiTree } from '../ui/ui-tree.js';
import { dialogSized } from './compute-delta.js';
import { otherPageSimilarity, pagePrints, samePageSimilarity, similarity } from './transition-memory.js';

/** True when every window of the dump is dialog-sized: a dialog dumped without the page under it. */
export function dialogOnly(tree: UiTree): boolean {
  return tree.roots.length > 0 && tree.roots.every((root) => dialogSized(tree, root));
}

/** Where a screen an action is taken on sits in the run's trail of pages. */
export interface TrailPlace {
  /** For a dialog dumped alone: the page the run was on when it opened the dialog. */
  readonly openedFrom?: UiTree;
  /**
   * The page the run came to this screen from, where Back leads: the page under a dialog
   * dumped alone, else the page before this one on the trail.
   */
  readonly cameFrom?: UiTree;
}

/** Pages kept on the trail (the oldest go first): a Back this deep is never tied. */
const maxPages = 16;

/**
 * The whole pages a run acted on, as a stack (docs/architecture.md §2.6). A device dumps a
 * dialog's window alone, so what the dialog's commit did to the page under it shows only
 * against the page the run was on when it opened the dialog, a step or two before (a menu,
 * then the dialog). A screen like a page on the trail (the memory's same page) is a return
 * to it: the pages above it are dropped, as Back drops them. A screen that is not another
 * page outright (`otherPageSimilarity`) is the top page re-drawn and takes its place. So the
 * page below the top is the one the run came from, where Back leads. The loop keeps one per
 * run; `verify-replay` one per recorded run, cleared where the recording skips (the next
 * step does not start where the last one ended).
 */
export class PageTrail {
  private pages: { readonly tree: UiTree; readonly prints: ReadonlySet<string> }[] = [];
  /** True when the last screen noted was a page (the top of the trail), not a dialog dumped alone. */
  private onPage = false;

  /** Notes the screen an action is taken on, and says where it sits on the trail. */
  note(before: UiTree): TrailPlace {
    const top = this.pages.at(-1)?.tree;
    this.onPage = !dialogOnly(before);
    if (!this.onPage) return top ? { openedFrom: top, cameFrom: top } : {};
    const prints = pagePrints(before);
    let index = this.pages.length - 1;
    while (index >= 0 && similarity(this.pages[index]!.prints, prints) < samePageSimilarity) index -= 1;
    if (index >= 0) this.pages.length = index;
    // Not another page outright: the top page re-drawn (a panel opened, a list grew), which Back does not return to.
    else if (this.pages.length > 0 && similarity(this.pages.at(-1)!.prints, prints) >= otherPageSimilarity) this.pages.pop();
    this.pages.push({ tree: before, prints });
    if (this.pages.length > maxPages) this.pages.shift();
    const below = this.pages.at(-2)?.tree;
    return below ? { cameFrom: below } : {};
  }

  /**
   * Back left the screen last noted: a page leaves the trail (the page Back reached is not
   * one it came from); a dialog dumped alone was never on it.
   */
  back(): void {
    if (this.onPage) this.pages.pop();
    this.onPage = false;
  }

  /** Forgets the pages: the recording skipped, so the pages before are not the ones under this screen. */
  clear(): void {
    this.pages = [];
    this.onPage = false;
  }
}
