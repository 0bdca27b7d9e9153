import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeText } from '../../../src/report/escape-html.js';
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
  it('between tags leaves quotes as they are; inside a tag escapes them, from text and from markup alike', () => {
    expect(escapeText(`<a href="x">'it's'</a> & \``)).toBe(`&lt;a href="x"&gt;'it's'&lt;/a&gt; &amp; \``);
    const quote = `"'\` onmouseover="window.__pwned = 1`;
    expect(html`<p>${quote}</p>`.markup).toBe(`<p>"'\` onmouseover="window.__pwned = 1</p>`);
    expect(html`<p title="${quote}">x</p>`.markup).toBe('<p title="&quot;&#39;&#96; onmouseover=&quot;window.__pwned = 1">x</p>');
    // Markup built between tags (quotes left raw) cannot end an attribute it is put in.
    const text = html`${quote} ${'&'}`;
    expect(html`<p title="${text}" class='${[text]}'>${text}</p>`.markup).toBe(`<p title="&quot;&#39;&#96; onmouseover=&quot;window.__pwned = 1 &amp;" class='&quot;&#39;&#96; onmouseover=&quot;window.__pwned = 1 &amp;'>"'\` onmouseover="window.__pwned = 1 &amp;</p>`);
    // Between a tag's attributes, markup is a fragment of attributes and goes in as built; text is fully escaped.
    expect(html`<rect x="1"${html` stroke-width="${6}"`} data-x=${quote}/>`.markup).toBe('<rect x="1" stroke-width="6" data-x=&quot;&#39;&#96; onmouseover=&quot;window.__pwned = 1/>');
    // A > inside a literal attribute value does not end the tag; a < that opens no tag does not start one.
    expect(html`<p data-rule="a > b" title="${quote}">1 < 2 ${quote}</p>`.markup).toBe(`<p data-rule="a > b" title="&quot;&#39;&#96; onmouseover=&quot;window.__pwned = 1">1 < 2 "'\` onmouseover="window.__pwned = 1</p>`);
  });
  it('does not trust look-alike objects', () => {
    const forged = { markup: '<script>alert(1)</script>' } as unknown as string;
    expect(() => html`${forged}`).toThrow(/html: cannot interpolate a \[object Object\]/);
  });
  it('joins fragments with an escaped separator', () => {
    expect(joinHtml([html`<a>`, 'x<y'], ' < ').markup).toBe('<a> &lt; x&lt;y');
  });
});
