// mobile-mcp's element list for Android, rebuilt from facts of its source (our code, its
// format): the text its `mobile_list_elements_on_screen` tool returns for a screen, for a
// side-by-side token count with `senseact mcp`'s observe (scripts/measure-observe-tokens.ts).
//
// Facts taken (mobile-next/mobile-mcp, Apache-2.0, src/android.ts `collectElements` and
// src/server.ts `mobile_list_elements_on_screen`, at commit 409e0a2 of 2026-08-18):
// - it reads `uiautomator dump` and walks the tree children first, then the node itself;
// - a node is listed when it has text, content-desc, hint or resource-id, or is checkable,
//   and its bounds have a positive width and height;
// - each element is `{ type: class (or "text"), text, label: content-desc || hint || "",
//   identifier: resource-id when not empty, coordinates: { x, y, width, height } of its
//   bounds, focused: true only when focused }` (name and value are undefined on Android);
// - the tool's text is `Found these elements on screen: ` + JSON.stringify of the list.
import type { UiNode, UiTree } from '../src/ui/ui-tree.js';

/** One element of the list, in mobile-mcp's key order. */
export interface MobileMcpElement {
  readonly type: string;
  readonly text: string;
  readonly label: string;
  readonly identifier?: string;
  readonly coordinates: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly focused?: true;
}

/** Whether mobile-mcp lists the node. */
export function listedByMobileMcp(node: UiNode): boolean {
  const [left, top, right, bottom] = node.bounds;
  const named = node.text !== '' || node.contentDesc !== '' || node.hint !== '' || node.resourceId !== '' || node.checkable;
  return named && right - left > 0 && bottom - top > 0;
}

function element(node: UiNode): MobileMcpElement {
  const [left, top, right, bottom] = node.bounds;
  return {
    type: node.className || 'text',
    text: node.text,
    label: node.contentDesc || node.hint || '',
    ...(node.resourceId === '' ? {} : { identifier: node.resourceId }),
    coordinates: { x: left, y: top, width: right - left, height: bottom - top },
    ...(node.focused ? { focused: true as const } : {}),
  };
}

/** The listed nodes of `tree` in mobile-mcp's order (children before their parent), as tree indices. */
export function mobileMcpNodes(tree: UiTree): number[] {
  const order: number[] = [];
  const visit = (index: number): void => {
    const node = tree.nodes[index];
    if (!node) return;
    for (const child of node.children) visit(child);
    if (listedByMobileMcp(node)) order.push(index);
  };
  for (const node of tree.nodes) if (node.parent === -1) visit(node.index);
  return order;
}

/** The tool's text for `tree`: `Found these elements on screen: [...]`. */
export function mobileMcpElementList(tree: UiTree): string {
  return `Found these elements on screen: ${JSON.stringify(mobileMcpNodes(tree).map((index) => element(tree.nodes[index]!)))}`;
}
