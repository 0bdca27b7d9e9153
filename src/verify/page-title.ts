import type { UiTree } from '../ui/ui-tree.js';

/**
 * The page title: the text or content-desc of a toolbar / action bar / app bar (or a
 * title inside one), else the first text near the top of the app's window.
 */
export function pageTitle(tree: UiTree): string {
  const barPattern = /toolbar|action_bar|app_bar|appbar|ActionBar|Toolbar/;
  for (const node of tree.nodes) {
    const label = node.text || node.contentDesc;
    if (label === '') continue;
    const parent = tree.nodes[node.parent];
    if (barPattern.test(`${node.resourceId} ${node.className}`) || (parent && barPattern.test(`${parent.resourceId} ${parent.className}`) && node.text !== '')) return label;
  }
  const top = tree.nodes.find((node) => node.text !== '' && node.packageName === tree.packageName && node.bounds[1] < tree.height * 0.2);
  return top?.text ?? '';
}
