import { HierarchyParseError } from './hierarchy-parse-error.js';

/** Attributes of one element, decoded, in source order. */
export type XmlAttributes = Record<string, string>;

/** Callbacks of `scanXmlElements`, in document order. */
export interface XmlElementHandler {
  readonly open: (name: string, attributes: XmlAttributes, offset: number) => void;
  readonly close: (name: string) => void;
}

const attributePattern = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const namePattern = /[A-Za-z_:][-A-Za-z0-9_:.$]*/y;
const entityPattern = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;

function decodeEntity(match: string, body: string): string {
  switch (body) {
    case 'amp': return '&';
    case 'lt': return '<';
    case 'gt': return '>';
    case 'quot': return '"';
    case 'apos': return "'";
    default: {
      const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
  }
}

function decode(value: string): string {
  return value.includes('&') ? value.replace(entityPattern, decodeEntity) : value;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * A small, strict scanner for the element structure of machine-written XML (UI
 * hierarchy dumps): elements and their attributes, in document order. Text content,
 * comments, processing instructions, CDATA and DOCTYPE are skipped. It checks what a
 * dump can get wrong — unbalanced or mismatched tags, truncation, malformed attributes,
 * text outside the root, a second root — and throws `HierarchyParseError` with the
 * position. Measured faster than a general XML parser on the dump corpus (see
 * scripts/bench-perception.ts).
 */
export function scanXmlElements(source: string, sourceName: string, handler: XmlElementHandler): void {
  const fail = (problem: string, offset: number, hint = 'Check that the file is a complete UI hierarchy dump (re-capture it if it was cut off).'): never => {
    throw new HierarchyParseError({ sourceName, problem, hint, source, offset });
  };
  const stack: { name: string; offset: number }[] = [];
  let rootDone = false;
  let sawRoot = false;
  let i = 0;
  const length = source.length;
  for (;;) {
    const lt = source.indexOf('<', i);
    const textEnd = lt === -1 ? length : lt;
    if (stack.length === 0) {
      for (let k = i; k < textEnd; k++) {
        if (!isSpace(source.charCodeAt(k)) && !(k === 0 && source.charCodeAt(k) === 0xfeff)) {
          fail(sawRoot ? 'text after the root element' : 'text before the root element (this is not XML)', k);
        }
      }
    }
    if (lt === -1) break;
    const next = source.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      const end = source.indexOf('?>', lt + 2);
      if (end === -1) fail('unterminated processing instruction `<?`', lt);
      i = end + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      let terminator = '>';
      if (source.startsWith('<!--', lt)) terminator = '-->';
      else if (source.startsWith('<![CDATA[', lt)) terminator = ']]>';
      const end = source.indexOf(terminator, lt + 2);
      if (end === -1) fail(`unterminated \`${source.slice(lt, lt + 4)}\``, lt);
      i = end + terminator.length;
      continue;
    }
    if (next === 47 /* / */) {
      namePattern.lastIndex = lt + 2;
      const match = namePattern.exec(source);
      if (!match) fail('malformed closing tag', lt);
      const name = match![0];
      let k = namePattern.lastIndex;
      while (k < length && isSpace(source.charCodeAt(k))) k++;
      if (source.charCodeAt(k) !== 62 /* > */) fail(k >= length ? `closing tag </${name}> cut off (truncated dump)` : `expected \`>\` to end </${name}>`, k);
      const open = stack.pop();
      if (!open) fail(`closing tag </${name}> without an opening tag`, lt);
      if (open!.name !== name) fail(`closing tag </${name}> does not match <${open!.name}> opened at ${lineColumn(source, open!.offset)}`, lt);
      handler.close(name);
      if (stack.length === 0) rootDone = true;
      i = k + 1;
      continue;
    }
    namePattern.lastIndex = lt + 1;
    const nameMatch = namePattern.exec(source);
    if (!nameMatch) fail(lt + 1 >= length ? 'the document ends inside a tag (truncated dump)' : 'malformed tag: `<` not followed by an element name', lt);
    const name = nameMatch![0];
    if (rootDone) fail(`a second root element <${name}> after the first one closed`, lt);
    sawRoot = true;
    const attributes: XmlAttributes = {};
    let k = namePattern.lastIndex;
    let selfClosing = false;
    for (;;) {
      const before = k;
      while (k < length && isSpace(source.charCodeAt(k))) k++;
      if (k >= length) fail(`the document ends inside <${name}> (truncated dump)`, k);
      const code = source.charCodeAt(k);
      if (code === 62 /* > */) { k++; break; }
      if (code === 47 /* / */) {
        if (source.charCodeAt(k + 1) !== 62) fail(k + 1 >= length ? `the document ends inside <${name}> (truncated dump)` : `expected \`/>\` in <${name}>`, k);
        selfClosing = true;
        k += 2;
        break;
      }
      if (k === before) fail(`expected whitespace between attributes of <${name}>`, k);
      attributePattern.lastIndex = k;
      const attribute = attributePattern.exec(source);
      if (!attribute) {
        const quote = source.indexOf('"', k);
        fail(quote === -1 || source.indexOf('"', quote + 1) === -1 ? `the document ends inside an attribute of <${name}> (truncated dump)` : `malformed attribute in <${name}> (expected name="value")`, k);
      }
      const value = attribute![2] ?? attribute![3] ?? '';
      // XML forbids a repeated attribute; taking the last would let `text="Cancel" text="Delete all"` read as the second.
      if (Object.hasOwn(attributes, attribute![1]!)) fail(`attribute ${attribute![1]} appears twice in <${name}>`, k);
      attributes[attribute![1]!] = decode(value);
      k = attributePattern.lastIndex;
    }
    handler.open(name, attributes, lt);
    if (selfClosing) {
      handler.close(name);
      if (stack.length === 0) rootDone = true;
    } else {
      stack.push({ name, offset: lt });
    }
    i = k;
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) fail(`the document ends with <${unclosed.name}> (opened at ${lineColumn(source, unclosed.offset)}) still open: truncated dump`, length);
  if (!sawRoot) fail('no XML element found (empty or whitespace-only input)', 0);
}

function lineColumn(source: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `${line}:${offset - lineStart + 1}`;
}
