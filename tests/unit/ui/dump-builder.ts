/** Builds small `adb shell uiautomator dump` documents for tests (all 17 attributes, like a device writes them). */
export interface FakeNode {
  readonly class?: string;
  readonly text?: string;
  readonly desc?: string;
  readonly id?: string;
  readonly package?: string;
  readonly bounds: readonly [number, number, number, number];
  readonly clickable?: boolean;
  readonly longClickable?: boolean;
  readonly checkable?: boolean;
  readonly checked?: boolean;
  readonly scrollable?: boolean;
  readonly selected?: boolean;
  readonly password?: boolean;
  readonly enabled?: boolean;
  readonly extra?: string;
  readonly children?: readonly FakeNode[];
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function render(node: FakeNode, index: number): string {
  const [l, t, r, b] = node.bounds;
  const attributes = [
    `index="${index}"`,
    `text="${escape(node.text ?? '')}"`,
    `resource-id="${escape(node.id ?? '')}"`,
    `class="${node.class ?? 'android.widget.FrameLayout'}"`,
    `package="${node.package ?? 'com.example.app'}"`,
    `content-desc="${escape(node.desc ?? '')}"`,
    `checkable="${node.checkable ?? false}"`,
    `checked="${node.checked ?? false}"`,
    `clickable="${node.clickable ?? false}"`,
    `enabled="${node.enabled ?? true}"`,
    `focusable="${node.clickable ?? false}"`,
    `focused="false"`,
    `scrollable="${node.scrollable ?? false}"`,
    `long-clickable="${node.longClickable ?? false}"`,
    `password="${node.password ?? false}"`,
    `selected="${node.selected ?? false}"`,
    `bounds="[${l},${t}][${r},${b}]"`,
  ].join(' ');
  const extra = node.extra ? ` ${node.extra}` : '';
  const children = node.children ?? [];
  if (children.length === 0) return `<node ${attributes}${extra} />`;
  return `<node ${attributes}${extra}>${children.map((child, position) => render(child, position)).join('')}</node>`;
}

/** A whole dump: `<?xml …?><hierarchy rotation="0">roots…</hierarchy>`. */
export function fakeDump(...roots: FakeNode[]): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${roots.map((root, position) => render(root, position)).join('')}</hierarchy>`;
}

/** A 1080×2400 app window with the given children. */
export function fakeScreen(...children: FakeNode[]): string {
  return fakeDump({ bounds: [0, 0, 1080, 2400], children });
}
