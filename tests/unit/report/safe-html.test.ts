import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/report/escape-html.js';
import { html, isSafeHtml, joinHtml } from '../../../src/report/safe-html.js';

describe('escapeHtml', () => {
  it('escapes every character that can open markup or close an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&\``)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;&#96;');
    expect(escapeHtml('plain text ✓')).toBe('plain text ✓');
  });
  it('does not double-escape on purpose: escaping twice shows the entity', () => {
    expect(escapeHtml(escapeHtml('<'))).toBe('&amp;lt;');
  });
});

describe('html', () => {
  it('escapes interpolated text and numbers, keeps nested html, flattens lists, drops null', () => {
    const inner = html`<b>${'<i>'}</b>`;
    const page = html`<p title="${'"quoted"'}">${'<script>'}${1 < 2}${[inner, ' & ', 3]}${null}${undefined}</p>`;
    expect(page.markup).toBe('<p title="&quot;quoted&quot;">&lt;script&gt;true<b>&lt;i&gt;</b> &amp; 3</p>');
    expect(isSafeHtml(page)).toBe(true);
  });
  it('does not trust look-alike objects', () => {
    const forged = { markup: '<script>alert(1)</script>' } as unknown as string;
    expect(() => html`${forged}`).toThrow(/html: cannot interpolate a \[object Object\]/);
  });
  it('joins fragments with an escaped separator', () => {
    expect(joinHtml([html`<a>`, 'x<y'], ' < ').markup).toBe('<a> &lt; x&lt;y');
  });
});
