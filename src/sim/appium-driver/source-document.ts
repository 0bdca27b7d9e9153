import { createRequire } from 'node:module';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/**
 * The `xpath` package's typings pull the DOM lib into the whole program; we load it
 * through `require` with the one signature we use, so the rest of the project keeps
 * its Node-only globals.
 */
const xpathSelect = (createRequire(import.meta.url)('xpath') as { select: (expression: string, node: unknown) => unknown }).select;

/** Locator strategies the driver supports, as WebdriverIO and Appium name them. */
export const simLocatorStrategies = ['xpath', 'id', 'accessibility id', 'class name'] as const;
export type SimLocatorStrategy = (typeof simLocatorStrategies)[number];

/** Thrown for a selector the driver cannot evaluate (the driver maps it to W3C `invalid selector`). */
export class InvalidSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSelectorError';
  }
}

/** Child element positions from the document element down to a node: its address in one page source. */
export type NodePath = readonly number[];

/**
 * One page source parsed for element lookup. Elements are addressed by their path of
 * child positions, which is what the driver's element ids remember between sources.
 */
export class SourceDocument {
  readonly xml: string;
  private readonly document: Document;

  constructor(xml: string) {
    this.xml = xml;
    const errors: string[] = [];
    this.document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(xml, 'text/xml');
    if (errors.length > 0 || !this.document.documentElement) {
      throw new Error(`The simulator's page source is not well-formed XML: ${errors.join('; ')}`);
    }
  }

  get root(): Element {
    const root = this.document.documentElement;
    if (!root) throw new Error('The page source has no root element.');
    return root;
  }

  /**
   * Elements matching `selector` under `context` (the whole document when absent), in
   * document order. The hierarchy root itself never matches the non-xpath strategies.
   */
  find(strategy: SimLocatorStrategy, selector: string, context?: Element): Element[] {
    const scope = context ?? this.root;
    switch (strategy) {
      case 'xpath':
        return this.findByXpath(selector, context);
      case 'id':
        return descendants(scope).filter((element) => resourceIdMatches(element.getAttribute('resource-id') ?? '', selector));
      case 'accessibility id':
        return descendants(scope).filter((element) => element.getAttribute('content-desc') === selector);
      case 'class name':
        return descendants(scope).filter((element) => element.getAttribute('class') === selector);
    }
  }

  /** The path of child positions from the root to `element`. */
  pathOf(element: Element): NodePath {
    const path: number[] = [];
    let current: Element = element;
    while (current !== this.root) {
      const parent = current.parentNode;
      if (!parent || parent.nodeType !== 1) break;
      path.unshift(childElements(parent as Element).indexOf(current));
      current = parent as Element;
    }
    return path;
  }

  /** The element at `path`, or undefined when this source has no element there. */
  at(path: NodePath): Element | undefined {
    let current: Element | undefined = this.root;
    for (const position of path) {
      current = current ? childElements(current)[position] : undefined;
    }
    return current;
  }

  /** Every element of the document, root first, in document order. */
  all(): Element[] {
    return [this.root, ...descendants(this.root)];
  }

  private findByXpath(selector: string, context: Element | undefined): Element[] {
    let selected: unknown;
    try {
      selected = xpathSelect(selector, context ?? this.document);
    } catch (error) {
      throw new InvalidSelectorError(`Invalid xpath '${selector}': ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!Array.isArray(selected)) {
      throw new InvalidSelectorError(`The xpath '${selector}' selects a value (${typeof selected}), not elements.`);
    }
    return selected.filter((node): node is Element => typeof node === 'object' && node !== null && (node as { nodeType?: number }).nodeType === 1);
  }
}

/** Direct child elements of `element`, skipping text and comment nodes. */
export function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let index = 0; index < element.childNodes.length; index++) {
    const child = element.childNodes.item(index);
    if (child && child.nodeType === 1) children.push(child as Element);
  }
  return children;
}

function descendants(element: Element): Element[] {
  const result: Element[] = [];
  const stack = childElements(element).reverse();
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next) break;
    result.push(next);
    stack.push(...childElements(next).reverse());
  }
  return result;
}

/** UiAutomator2 accepts a full resource id (`pkg:id/name`) or just its name. */
function resourceIdMatches(resourceId: string, selector: string): boolean {
  if (resourceId === '') return false;
  if (resourceId === selector) return true;
  return !selector.includes(':id/') && resourceId.endsWith(`:id/${selector}`);
}

/** `[left, top, right, bottom]` from an element's `bounds="[l,t][r,b]"`, or undefined when absent. */
export function elementBounds(element: Element): [number, number, number, number] | undefined {
  const match = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(element.getAttribute('bounds') ?? '');
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
}
