import type { NodeIndex, UiTree } from '../ui/ui-tree.js';

/** Something on screen that blocks or reports the failure of the last action. */
export interface Blocker {
  readonly kind: 'error-toast' | 'permission' | 'not-responding';
  readonly text: string;
  /** The node showing it, when there is one (toasts may come only as text). */
  readonly node?: NodeIndex;
}

/** Words that make a toast an error report. */
export const errorWordsPattern = /\b(error|failed|failure|fail|couldn['’]?t|could not|can['’]?t|cannot|unable|invalid|not allowed|denied|try again|no (internet|connection|network)|problem|went wrong)\b/i;
const permissionPackagePattern = /permissioncontroller|packageinstaller/;
const permissionIdPattern = /:id\/(permission_allow\w*|permission_deny\w*|grant_dialog|permission_message)$/;
const notRespondingPattern = /isn['’]t responding|is not responding|not responding|has stopped|keeps stopping/i;

/**
 * The blockers on a screen (docs/architecture.md §4): toasts with error words, a
 * permission dialog (permission controller / package installer, or its allow/deny
 * buttons), and "isn't responding" / "has stopped" system dialogs.
 */
export function findBlockers(tree: UiTree): Blocker[] {
  const blockers: Blocker[] = [];
  const toastTexts = new Set<string>();
  for (const node of tree.nodes) {
    if (node.className === 'android.widget.Toast') {
      const text = node.text || node.contentDesc;
      toastTexts.add(text);
      if (errorWordsPattern.test(text)) blockers.push({ kind: 'error-toast', text, node: node.index });
    }
  }
  for (const text of tree.toasts) {
    if (!toastTexts.has(text) && errorWordsPattern.test(text)) blockers.push({ kind: 'error-toast', text });
  }
  let permission: Blocker | undefined;
  for (const node of tree.nodes) {
    if (permission === undefined && (permissionIdPattern.test(node.resourceId) || (permissionPackagePattern.test(node.packageName) && node.parent === -1))) {
      const message = tree.nodes.find((candidate) => /:id\/permission_message$/.test(candidate.resourceId));
      permission = { kind: 'permission', text: message?.text ?? node.text, node: message?.index ?? node.index };
    }
    const text = node.text || node.contentDesc;
    if (text !== '' && notRespondingPattern.test(text)) blockers.push({ kind: 'not-responding', text, node: node.index });
  }
  if (permission) blockers.push(permission);
  return blockers;
}
