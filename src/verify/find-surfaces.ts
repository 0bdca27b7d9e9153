import { boundsArea } from '../ui/bounds.js';
import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';

/** What kind of surface sits above the app's main content. */
export type SurfaceKind = 'dialog' | 'sheet' | 'popup' | 'window';

/** A dialog, bottom sheet, popup menu or separate small window found in a tree. */
export interface Surface {
  readonly root: NodeIndex;
  readonly kind: SurfaceKind;
  /** A short description for logs and reports: kind, class, id and first texts. */
  readonly signature: string;
}

/** A window root smaller than this share of the screen is a dialog-like window. */
export const surfaceWindowAreaRatio = 0.9;
/** How many texts of a surface go into its signature. */
export const surfaceSignatureTexts = 4;

const systemWindowPackage = /^com\.android\.systemui$|inputmethod|keyboard|honeyboard/i;
const surfaceIdPattern = /:id\/(parentPanel|design_bottom_sheet|bottom_sheet\w*|grant_dialog|select_dialog_listview|action_sheet\w*)$/;
const surfaceClassPattern = /Dialog|BottomSheet|PopupWindow|DropDownListView|MenuPopup|PopupDecorView/;

function kindOf(node: UiNode): SurfaceKind | undefined {
  const subject = `${node.className} ${node.resourceId}`;
  if (!surfaceIdPattern.test(node.resourceId) && !surfaceClassPattern.test(node.className)) return undefined;
  if (/sheet/i.test(subject)) return 'sheet';
  if (/popup|dropdown|menu/i.test(subject)) return 'popup';
  return 'dialog';
}

function signatureOf(tree: UiTree, root: NodeIndex, kind: SurfaceKind): string {
  const node = tree.nodes[root];
  if (!node) return kind;
  const texts: string[] = [];
  const stack: NodeIndex[] = [root];
  while (stack.length > 0 && texts.length < surfaceSignatureTexts) {
    const current = tree.nodes[stack.shift() ?? -1];
    if (!current) continue;
    const label = current.text || current.contentDesc;
    if (label !== '') texts.push(label);
    stack.unshift(...current.children);
  }
  return [kind, node.className, node.resourceId, ...texts].join('|');
}

/**
 * Finds the surfaces of a screen: window roots clearly smaller than the screen (a
 * dialog window in a dump), and nodes whose class or resource-id names a dialog, sheet
 * or popup. Only the outermost surface of a nested group is returned. System bars and
 * keyboards are not surfaces.
 */
export function findSurfaces(tree: UiTree): Surface[] {
  const surfaces: Surface[] = [];
  const screenArea = tree.width * tree.height;
  const taken = new Set<NodeIndex>();
  for (const root of tree.roots) {
    const node = tree.nodes[root];
    if (!node || systemWindowPackage.test(node.packageName)) continue;
    const area = boundsArea(node.bounds);
    if (screenArea > 0 && area > 0 && area < surfaceWindowAreaRatio * screenArea) {
      surfaces.push({ root, kind: kindOf(node) ?? 'window', signature: signatureOf(tree, root, kindOf(node) ?? 'window') });
      taken.add(root);
    }
  }
  // Pre-order: a parent comes before its children, so marking a surface's subtree skips nested ones.
  const insideSurface = new Uint8Array(tree.nodes.length);
  for (const node of tree.nodes) {
    if (node.parent >= 0 && insideSurface[node.parent]) insideSurface[node.index] = 1;
    if (insideSurface[node.index]) continue;
    if (taken.has(node.index)) {
      insideSurface[node.index] = 1;
      continue;
    }
    if (systemWindowPackage.test(node.packageName)) continue;
    const kind = kindOf(node);
    if (kind === undefined) continue;
    surfaces.push({ root: node.index, kind, signature: signatureOf(tree, node.index, kind) });
    insideSurface[node.index] = 1;
  }
  return surfaces;
}
