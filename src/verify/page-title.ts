import type { UiTree } from '../ui/ui-tree.js';

/** An app bar (toolbar, action bar) by its class or resource-id: `Toolbar`, `action_bar`, `AppBarLayout`, `appbar`. */
export const appBarName = /toolbar|action_?bar|app_?bar/i;

/**
 * The page title: the text or content-desc of a toolbar / action bar / app bar (or a
 * title inside one), else the first text near the top of the app's window.
 */
export function pageTitle(tree: UiTree): string {
  for (const node of tree.nodes) {
    const label = node.text || node.contentDesc;
    if (label === '') continue;
    const parent = tree.nodes[node.parent];
    if (appBarName.test(`${node.resourceId} ${node.className}`) || (parent && appBarName.test(`${parent.resourceId} ${parent.className}`) && node.text !== '')) return label;
  }
  const top = tree.nodes.find((node) => node.text !== '' && node.packageName === tree.packageName && node.bounds[1] < tree.height * 0.2);
  return top?.text ?? '';
}
