// describeChanges on SYNTHETIC hand-made screens: how a field whose text changed is named.
import { describe, expect, it } from 'vitest';
import { describeChanges } from '../../../src/report/describe-changes.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { hierarchy, node, screen } from '../verify/screens.js';

/** A row holding a button and a field: the button's text comes first under their parent. */
function page(field: Record<string, string | boolean>): ReturnType<typeof screen> {
  return screen(hierarchy(node({ class: 'android.widget.LinearLayout', bounds: '[0,0][1080,400]' },
    node({ class: 'android.widget.Button', text: 'EVAL', clickable: true, bounds: '[0,0][300,100]' })
    + node({ class: 'android.widget.EditText', clickable: true, focusable: true, bounds: '[0,120][1080,380]', ...field }))));
}

function textLines(before: ReturnType<typeof screen>, after: ReturnType<typeof screen>): string[] {
  return describeChanges(computeDelta(before, after).changes, before, after).map((line) => line.text);
}

describe('describeChanges names a field by what it asks for, not by a button beside it', () => {
  it('by its hint', () => {
    expect(textLines(page({ text: '1+1', hint: 'Code' }), page({ text: '2+2', hint: 'Code' }))).toContain("text of 'Code' field: '1+1' → '2+2'");
  });

  it('by its id when it has no hint', () => {
    const lines = textLines(page({ text: '1+1', 'resource-id': 'com.example.app:id/codeInput' }), page({ text: '2+2', 'resource-id': 'com.example.app:id/codeInput' }));
    expect(lines).toContain("text of field codeInput: '1+1' → '2+2'");
    expect(lines.join('\n')).not.toContain('EVAL');
  });
});
