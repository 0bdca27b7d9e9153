import type { UiTree } from '../ui/ui-tree.js';
import { dialogSized } from './compute-delta.js';

/** True when every window of the dump is dialog-sized: a dialog dumped without the page under it. */
export function dialogOnly(tree: UiTree): boolean {
  return tree.roots.length > 0 && tree.roots.every((root) => dialogSized(tree, root));
}

/**
 * The last whole page a run acted on (docs/architecture.md §2.6). A device dumps a dialog's
 * window alone, so what the dialog's commit did to the page under it shows only against the
 * page the run was on when it opened the dialog, a step or two before (a menu, then the
 * dialog). The loop keeps one per run; `verify-replay` one per recorded run, cleared where
 * the recording skips (the next step does not start where the last one ended).
 */
export class PageTrail {
  private page: UiTree | undefined;

  /**
   * Notes the screen an action is taken on. Returns the page the run was on before it when
   * it is a dialog dumped alone (undefined when it is a page, or no page came before).
   */
  note(before: UiTree): UiTree | undefined {
    if (dialogOnly(before)) return this.page;
    this.page = before;
    return undefined;
  }

  /** Forgets the page: the recording skipped, so the page before is not the one under this dialog. */
  clear(): void {
    this.page = undefined;
  }
}
