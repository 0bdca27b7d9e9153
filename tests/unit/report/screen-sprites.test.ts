import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { drawScreen, xmlText } from '../../../src/report/screen-drawing.js';
import { ScreenSprites } from '../../../src/report/screen-sprites.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const screen = (label: string, height = 200): string => `<hierarchy rotation="0" width="100" height="${height}"><android.widget.Button class="android.widget.Button" text="${label}" clickable="true" bounds="[0,0][100,40]" displayed="true"/></hierarchy>`;

/** Parses `markup` as strict XML: the problems the parser reports (none for a well-formed file). */
function xmlProblems(markup: string): string[] {
  const problems: string[] = [];
  new DOMParser({ onError: (level, message) => { if (level !== 'warning') problems.push(message); } }).parseFromString(markup, 'image/svg+xml');
  return problems;
}

describe('ScreenSprites', () => {
  it('keeps each distinct drawing once, a view per drawing, in well-formed SVG', () => {
    const sprites = new ScreenSprites();
    const ok = drawScreen(parseHierarchy(screen('OK')));
    const cancel = drawScreen(parseHierarchy(screen('Cancel')));
    if (ok === undefined || cancel === undefined) throw new Error('nothing drawn');
    const first = sprites.add(ok);
    // The same screen parsed again (another run's) is the same drawing: not stored twice.
    const again = sprites.add(drawScreen(parseHierarchy(screen('OK'))) ?? ok);
    const second = sprites.add(cancel);
    expect(again).toEqual(first);
    expect(first).toEqual({ file: 'screens-0.svg', id: 's0', width: 100, height: 200 });
    expect(second).toEqual({ file: 'screens-0.svg', id: 's1', width: 100, height: 200 });
    expect(sprites.count).toBe(2);
    const [file, ...more] = sprites.files();
    expect(more).toEqual([]);
    expect(file?.markup.match(/<view /g)).toHaveLength(2);
    // The second screen lies below the first, with room between: its view frames it alone.
    expect(file?.markup).toContain('<view id="s0" viewBox="0 0 100 200"/><g transform="translate(0 0)">');
    expect(file?.markup).toContain('<view id="s1" viewBox="0 240 100 200"/><g transform="translate(0 240)">');
    expect(file?.markup.match(/>OK</g)).toHaveLength(1);
    expect(xmlProblems(file?.markup ?? '')).toEqual([]);
  });

  it('begins a new file once one holds its share of bytes', () => {
    const sprites = new ScreenSprites({ fileBytes: 1 });
    const refs = ['A', 'B', 'A'].map((label) => sprites.add(drawScreen(parseHierarchy(screen(label))) ?? assertDrawn()));
    expect(refs.map((ref) => `${ref.file}#${ref.id}`)).toEqual(['screens-0.svg#s0', 'screens-1.svg#s1', 'screens-0.svg#s0']);
    expect(sprites.files().map((file) => file.name)).toEqual(['screens-0.svg', 'screens-1.svg']);
  });

  it('writes app text XML cannot hold as U+FFFD, so one label cannot blank a whole file', () => {
    expect(xmlText('a\u0001b\u000Bc\uFFFEd\uD800e\uDC00')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFD');
    // Tab, line breaks and a whole surrogate pair are kept.
    expect(xmlText('a\tb\nc\r😀')).toBe('a\tb\nc\r😀');
    const tree = parseHierarchy(screen('Save'));
    const hostile = { ...tree, nodes: tree.nodes.map((node) => (node.text === 'Save' ? { ...node, text: 'Sa\u0001ve <script>', className: 'x\u0002y' } : node)) };
    const sprites = new ScreenSprites();
    sprites.add(drawScreen(hostile) ?? assertDrawn());
    const markup = sprites.files()[0]?.markup ?? '';
    expect(markup).toContain('<title>x\uFFFDy · Sa\uFFFDve &lt;script&gt;</title>');
    expect(markup).not.toContain('<script');
    expect(xmlProblems(markup)).toEqual([]);
    // (xmldom lets a control character pass; Chromium does not: tests/integration/report/write-bench-report.test.ts loads both.)
  });
});

function assertDrawn(): never {
  throw new Error('nothing drawn');
}
