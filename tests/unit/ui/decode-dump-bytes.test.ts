// A dump saved on Windows (`uiautomator dump > file` in PowerShell writes UTF-16 with a
// byte-order mark) reads like the UTF-8 original; UTF-16 mistaken for UTF-8 is named.
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeDumpBytes } from '../../../src/ui/decode-dump-bytes.js';
import { HierarchyParseError } from '../../../src/ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const folder = path.resolve(import.meta.dirname, '../../fixtures/dumps');
const file = readdirSync(folder).find((name) => name.endsWith('.xml'))!;
const text = readFileSync(path.join(folder, file), 'utf8');

function utf16(value: string, endian: 'le' | 'be', bom: boolean): Buffer {
  const little = Buffer.from(value, 'utf16le');
  const body = endian === 'le' ? little : Buffer.from(little).swap16();
  return bom ? Buffer.concat([Buffer.from(endian === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]) : body;
}

describe('decodeDumpBytes', () => {
  const expected = parseHierarchy(text);
  const cases: [string, Uint8Array, string][] = [
    ['UTF-8', Buffer.from(text, 'utf8'), 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]), 'utf-8'],
    ['UTF-16LE with BOM', utf16(text, 'le', true), 'utf-16le'],
    ['UTF-16BE with BOM', utf16(text, 'be', true), 'utf-16be'],
    ['UTF-16LE without BOM', utf16(text, 'le', false), 'utf-16le'],
  ];
  for (const [label, bytes, encoding] of cases) {
    it(`reads ${label} into the same tree`, () => {
      const decoded = decodeDumpBytes(bytes);
      expect(decoded.encoding).toBe(encoding);
      expect(decoded.text).toBe(text);
      expect(parseHierarchy(bytes).nodes).toEqual(expected.nodes);
    });
  }

  it('names UTF-16 text that was read as UTF-8, and says what to do', () => {
    const mangled = utf16(text, 'le', true).toString('utf8');
    let caught: unknown;
    try {
      parseHierarchy(mangled, { sourceName: 'dump.xml' });
    } catch (error) {
      caught = error;
    }
    expect(HierarchyParseError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/dump\.xml:1:\d+: the text holds NUL characters: it looks like UTF-16 read as UTF-8.*Pass the file's bytes/s);
  });
});
