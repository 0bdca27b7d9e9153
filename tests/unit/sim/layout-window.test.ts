import { describe, expect, it } from 'vitest';
import { column, label, layoutWindow, recycler, row, view, type LaidNode, type ScrollExtents, type Widget } from '../../../src/sim/index.js';

function lay(root: Widget, box: [number, number, number, number], scroll: Record<string, number> = {}, extents: ScrollExtents = new Map()): LaidNode {
  return layoutWindow(root, box, { scale: 2, pkg: 'com.example', scrollOffsets: new Map(Object.entries(scroll)), focusedField: undefined, extents });
}

describe('layoutWindow', () => {
  it('stacks column children, shares the remaining height among fill children and converts dp to px', () => {
    const root = column({ padding: 10 }, [view('android.view.View', { height: 50 }), view('android.view.View', { height: 'fill' }), view('android.view.View', { height: 'fill' })]);
    const node = lay(root, [0, 0, 400, 1000]);
    expect(node.children.map((c) => c.bounds)).toEqual([
      [20, 20, 380, 120],
      [20, 120, 380, 550],
      [20, 550, 380, 980],
    ]);
    expect(node.children.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(node.resourceId).toBe('');
  });

  it('places row children by their fixed or wrapped widths and gives fill children the rest', () => {
    const root = row({}, [view('android.view.View', { width: 40 }), view('android.view.View', { width: 'fill' }), label('abcd', { fontSize: 10 })]);
    const node = lay(root, [0, 0, 500, 100]);
    const widths = node.children.map((c) => c.bounds[2] - c.bounds[0]);
    expect(widths[0]).toBe(80);
    expect(widths[2]).toBe(Math.ceil(4 * 10 * 2 * 0.55));
    expect(widths[1]).toBe(500 - 80 - (widths[2] ?? 0));
  });

  it('prefixes entry-name ids with the package and keeps full ids as given', () => {
    const node = lay(column({ id: 'list' }, [view('android.view.View', { id: 'android:id/title', height: 10 })]), [0, 0, 100, 100]);
    expect(node.resourceId).toBe('com.example:id/list');
    expect(node.children[0]?.resourceId).toBe('android:id/title');
  });

  it('shows only the scroll container children that are on screen, clips partial ones, and reports the extent', () => {
    const items = Array.from({ length: 10 }, (_, i) => label(`item ${i}`, { height: 100 }));
    const extents: ScrollExtents = new Map();
    const node = lay(recycler('list', {}, items), [0, 0, 400, 500], { list: 150 }, extents);
    // 100 dp rows are 200 px: at offset 150 px rows 0–3 are (partly) on screen
    expect(node.children.map((c) => c.text)).toEqual(['item 0', 'item 1', 'item 2', 'item 3']);
    expect(node.children[0]?.bounds).toEqual([0, 0, 400, 50]);
    expect(node.children[0]?.fullRect).toEqual([0, -150, 400, 50]);
    expect(node.children[3]?.bounds).toEqual([0, 450, 400, 500]);
    expect(node.children.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(extents.get('list')?.max).toBe(10 * 200 - 500);
  });

  it('clamps scroll offsets to the content', () => {
    const items = Array.from({ length: 4 }, (_, i) => label(`item ${i}`, { height: 100 }));
    const node = lay(recycler('list', {}, items), [0, 0, 400, 500], { list: 10_000 });
    expect(node.children.map((c) => c.text)).toEqual(['item 1', 'item 2', 'item 3']);
    expect(node.children[2]?.bounds).toEqual([0, 300, 400, 500]);
  });
});
