import type { Element } from '@xmldom/xmldom';
import type { NodePath, SourceDocument } from './source-document.js';

interface ElementRecord {
  readonly path: NodePath;
  readonly className: string;
  readonly resourceId: string;
  readonly contentDesc: string;
  readonly bounds: string;
}

/** What resolving an element id against the current page source gave. */
export type ElementResolution =
  | { readonly status: 'found'; readonly element: Element }
  | { readonly status: 'unknown' }
  | { readonly status: 'stale' };

/**
 * Element ids handed to the client. An id remembers where its node was (its child
 * path) and what it was (class, resource-id, content-desc, bounds); against a newer page
 * source it resolves to the node at the same path when that node still has the same
 * identity, else to the one node elsewhere with that identity (the list scrolled, a
 * sibling appeared), else it is stale. Text is not part of the identity: typing into a
 * field must not invalidate its element.
 */
export class ElementRegistry {
  private readonly records = new Map<string, ElementRecord>();
  private nextId = 1;

  register(document: SourceDocument, element: Element): string {
    const id = `sim-${String(this.nextId++).padStart(6, '0')}`;
    this.records.set(id, { path: document.pathOf(element), ...identityOf(element) });
    return id;
  }

  resolve(id: string, document: SourceDocument): ElementResolution {
    const record = this.records.get(id);
    if (!record) return { status: 'unknown' };
    const atPath = document.at(record.path);
    if (atPath && sameIdentity(record, atPath)) return { status: 'found', element: atPath };
    const candidates = document.all().filter((element) => sameIdentity(record, element));
    if (candidates.length === 1 && candidates[0]) return { status: 'found', element: candidates[0] };
    const sameBounds = candidates.filter((element) => (element.getAttribute('bounds') ?? '') === record.bounds);
    if (sameBounds.length === 1 && sameBounds[0]) return { status: 'found', element: sameBounds[0] };
    return { status: 'stale' };
  }

  clear(): void {
    this.records.clear();
  }

  get size(): number {
    return this.records.size;
  }
}

function identityOf(element: Element): Omit<ElementRecord, 'path'> {
  return {
    className: element.getAttribute('class') ?? element.tagName,
    resourceId: element.getAttribute('resource-id') ?? '',
    contentDesc: element.getAttribute('content-desc') ?? '',
    bounds: element.getAttribute('bounds') ?? '',
  };
}

function sameIdentity(record: ElementRecord, element: Element): boolean {
  const identity = identityOf(element);
  return identity.className === record.className && identity.resourceId === record.resourceId && identity.contentDesc === record.contentDesc;
}
