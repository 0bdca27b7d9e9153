import { formatBounds } from './bounds.js';
import { droidBotViewBounds, orderDroidBotState, type DroidBotStateProblem, type DroidBotStateView } from './droidbot-state.js';

/**
 * A character XML 1.0 cannot hold (C0 controls other than tab, newline and carriage
 * return, lone surrogates, U+FFFE and U+FFFF); `uiautomator dump` writes `?` for each.
 */
const notInXml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** An attribute value as `uiautomator dump` writes it: markup escaped, line breaks and tabs as character references. */
function attribute(value: string | null | undefined): string {
  return (value ?? '')
    .replace(notInXml, '?')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function flag(value: boolean | null | undefined): string {
  return value === true ? 'true' : 'false';
}

/** One view's `<node` start, its attributes in the order `uiautomator dump` writes them. */
function nodeStart(view: DroidBotStateView, index: number): string {
  return `<node index="${index}" text="${attribute(view.text)}" resource-id="${attribute(view.resource_id)}" class="${attribute(view.class)}"`
    + ` package="${attribute(view.package)}" content-desc="${attribute(view.content_description)}" checkable="${flag(view.checkable)}"`
    + ` checked="${flag(view.checked)}" clickable="${flag(view.clickable)}" enabled="${flag(view.enabled)}" focusable="${flag(view.focusable)}"`
    + ` focused="${flag(view.focused)}" scrollable="${flag(view.scrollable)}" long-clickable="${flag(view.long_clickable)}"`
    + ` password="${flag(view.is_password)}" selected="${flag(view.selected)}" bounds="${formatBounds(droidBotViewBounds(view))}"`;
}

/**
 * A DroidBot state (the parsed JSON of `states/state_<tag>.json`) as the one-line
 * uiautomator XML `adb shell uiautomator dump` would have written for the same screen:
 * `<hierarchy rotation="0">` and a `<node>` per displayed view, nested as `children`
 * say. Like the dump, a view with `visible: false` is left out with its subtree (its
 * siblings keep their `index`, the position among the parent's children). Characters XML
 * cannot hold become `?`. `rotation` is 0: DroidBot does not record it. The foreground
 * activity and the activity stack have no place in the XML: a caller keeps them beside it.
 * Returns the state's first problem (as `orderDroidBotState` finds it) instead when the
 * state does not hold together.
 */
export function droidBotStateXml(data: unknown): { readonly xml: string } | DroidBotStateProblem {
  const ordered = orderDroidBotState(data);
  if ('problem' in ordered) return ordered;
  const parts: string[] = [`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`];
  // Depths of the open elements; a hidden view's subtree is skipped until the walk climbs back to its depth.
  const open: number[] = [];
  let hiddenDepth = Number.POSITIVE_INFINITY;
  const views = ordered.views;
  for (const [at, entry] of views.entries()) {
    if (entry.depth > hiddenDepth) continue;
    hiddenDepth = Number.POSITIVE_INFINITY;
    while (open.length > 0 && open.at(-1)! >= entry.depth) {
      parts.push('</node>');
      open.pop();
    }
    if (entry.view.visible === false) {
      hiddenDepth = entry.depth;
      continue;
    }
    const hasChildren = (views[at + 1]?.depth ?? -1) > entry.depth;
    parts.push(nodeStart(entry.view, entry.siblingIndex), hasChildren ? '>' : ' />');
    if (hasChildren) open.push(entry.depth);
  }
  while (open.pop() !== undefined) parts.push('</node>');
  parts.push('</hierarchy>');
  return { xml: parts.join('') };
}
