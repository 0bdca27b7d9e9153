import { isAlias, LineCounter, parseDocument, visit, type Document } from 'yaml';

/**
 * How many alias expansions (`*name`) a YAML file may make. Task files and device profiles
 * need a few; a "billion laughs" file nests anchors to expand millions of times.
 */
export const maxYamlAliasCount = 100;

/** One thing wrong with a YAML text, at a 1-based line and column when it has a place. */
export interface YamlProblem {
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

/** A parsed YAML text: its value, and the document to locate fields in. */
export interface ParsedYaml {
  readonly value: unknown;
  readonly document: Document;
  readonly lineCounter: LineCounter;
}

/**
 * Parses untrusted YAML (task files, device profiles, recorded data) without letting it
 * exhaust the process: syntax errors, duplicate keys, more than {@link maxYamlAliasCount}
 * alias expansions (an alias bomb) and nesting the parser cannot take come back as
 * problems with their line and column, never as a thrown library error. The caller wraps
 * them in its own error naming the file.
 */
export function parseYamlSafely(text: string): { success: true; value: ParsedYaml } | { success: false; problems: YamlProblem[] } {
  const lineCounter = new LineCounter();
  const at = (offset: number | undefined): { line?: number; column?: number } => {
    if (offset === undefined) return {};
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  let document: Document;
  try {
    document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    return { success: false, problems: [{ message: `the YAML parser gave up (${error instanceof Error ? error.message : String(error)}); the file is damaged or nests too deeply` }] };
  }
  if (document.errors.length > 0) {
    // Valid YAML nested past the parser's stack comes back as a syntax error quoting the stack overflow: say what it is.
    const tooDeep = (message: string): boolean => /maximum call stack/i.test(message);
    return { success: false, problems: document.errors.map((error) => ({ ...at(error.pos[0]), message: tooDeep(error.message) ? 'the YAML is nested too deep to read; flatten it' : `YAML syntax: ${error.message.split('\n')[0] ?? error.code}` })) };
  }
  try {
    return { success: true, value: { value: document.toJS({ maxAliasCount: maxYamlAliasCount }), document, lineCounter } };
  } catch (error) {
    const aliasBomb = error instanceof ReferenceError;
    if (!aliasBomb && !(error instanceof RangeError)) throw error;
    let first: number | undefined;
    visit(document, {
      Alias(_key, node) {
        if (isAlias(node)) first = node.range?.[0];
        return visit.BREAK;
      },
    });
    const problem = aliasBomb
      ? `YAML aliases expand more than ${maxYamlAliasCount} times (an alias bomb?); write the values out instead of nesting anchors (&name) and aliases (*name)`
      : `the YAML nests too deeply to read (${String(error)})`;
    return { success: false, problems: [{ ...at(first), message: problem }] };
  }
}
