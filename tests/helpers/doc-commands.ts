// The shell commands of a Markdown document's code blocks (```sh, ```bash, ```shell), as a
// small shell reads them: `\` continues a line, `#` starts a comment, `&&` and `;` separate
// commands, quotes group words, `VAR=value` before a command is its environment, `export`
// sets the block's, and `for v in a b; do … done` runs its body once with the first value.
// Command substitution `$(…)` and pipes are kept as written and marked, for the caller to
// list as commands it cannot run.

/** One command of a documented code block. */
export type DocCommand = {
  readonly file: string;
  /** 1-based line of the command's first line in the document. */
  readonly line: number;
  /** 1-based line of its code block's first line: commands of one block share a shell. */
  readonly block: number;
  /** The command as written (continuations joined). */
  readonly text: string;
  /** Words after expansion, without the leading assignments. */
  readonly argv: readonly string[];
  /** `VAR=value` before the command and the block's `export`s. */
  readonly env: Readonly<Record<string, string>>;
  /** Why a small shell cannot run it as written (substitution, pipe, unknown variable). */
  readonly unsupported?: string;
};

type Token = { word: string } | { operator: '&&' | ';' | '|' | '||' } | { substitution: string };

const shellLanguages = new Set(['sh', 'bash', 'shell']);

/** The shell code blocks of a Markdown text: the body lines and the line of the first. */
export function shellBlocks(markdown: string): { line: number; lines: string[] }[] {
  const blocks: { line: number; lines: string[] }[] = [];
  let open: { line: number; lines: string[]; shell: boolean } | undefined;
  markdown.split('\n').forEach((text, index) => {
    const fence = /^\s*```\s*([\w-]*)/.exec(text);
    if (fence !== null) {
      if (open === undefined) open = { line: index + 2, lines: [], shell: shellLanguages.has(fence[1] ?? '') };
      else {
        if (open.shell) blocks.push({ line: open.line, lines: open.lines });
        open = undefined;
      }
      return;
    }
    open?.lines.push(text);
  });
  return blocks;
}

function tokenize(text: string, vars: Readonly<Record<string, string>>, unknown: Set<string>): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  const push = (): void => {
    if (word !== undefined) tokens.push({ word });
    word = undefined;
  };
  const expand = (name: string): string => {
    const value = vars[name];
    if (value === undefined) unknown.add(name);
    return value ?? `$${name}`;
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const rest = text.slice(index);
    if (char === ' ' || char === '\t') { push(); continue; }
    if (char === '#' && word === undefined) break;
    const operator = /^(&&|\|\||;|\|)/.exec(rest)?.[1] as '&&' | '||' | ';' | '|' | undefined;
    if (operator !== undefined) { push(); tokens.push({ operator }); index += operator.length - 1; continue; }
    if (rest.startsWith('$(')) {
      const end = text.indexOf(')', index);
      push();
      tokens.push({ substitution: text.slice(index, end + 1) });
      index = end;
      continue;
    }
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      word = (word ?? '') + text.slice(index + 1, end);
      index = end;
      continue;
    }
    if (char === '"') {
      let end = index + 1;
      let value = '';
      while (end < text.length && text[end] !== '"') {
        const name = /^\$\{?(\w+)\}?/.exec(text.slice(end));
        if (name !== null) { value += expand(name[1]!); end += name[0].length; continue; }
        if (text[end] === '\\' && end + 1 < text.length) end++;
        value += text[end];
        end++;
      }
      word = (word ?? '') + value;
      index = end;
      continue;
    }
    const name = /^\$\{?(\w+)\}?/.exec(rest);
    if (name !== null) { word = (word ?? '') + expand(name[1]!); index += name[0].length - 1; continue; }
    word = (word ?? '') + char;
  }
  push();
  return tokens;
}

/** Every command of a Markdown document's shell code blocks, in order. */
export function docCommands(file: string, markdown: string): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const block of shellBlocks(markdown)) {
    const vars: Record<string, string> = {};
    const exported: Record<string, string> = {};
    // Join continuations, keeping the line each command starts on.
    const logical: { line: number; text: string }[] = [];
    block.lines.forEach((text, offset) => {
      const last = logical.at(-1);
      if (last !== undefined && last.text.endsWith('\\')) last.text = `${last.text.slice(0, -1)} ${text.trim()}`;
      else logical.push({ line: block.line + offset, text: text.trim() });
    });
    for (const { line, text } of logical) {
      const unknown = new Set<string>();
      const tokens = tokenize(text, vars, unknown);
      let current: Token[] = [];
      const segments: Token[][] = [];
      for (const token of tokens) {
        if ('operator' in token && (token.operator === '&&' || token.operator === ';')) { segments.push(current); current = []; }
        else current.push(token);
      }
      segments.push(current);
      for (let segment of segments) {
        if (segment.length === 0) continue;
        const first = segment[0];
        if (first !== undefined && 'word' in first && first.word === 'for') {
          // `for v in a b c` → v = a; the body follows `do`.
          const words = segment.flatMap((token) => ('word' in token ? [token.word] : []));
          vars[words[1]!] = words[3]!;
          continue;
        }
        if (first !== undefined && 'word' in first && (first.word === 'do' || first.word === 'done')) {
          segment = segment.slice(1);
          if (segment.length === 0) continue;
        }
        const env: Record<string, string> = { ...exported };
        let index = 0;
        for (; index < segment.length; index++) {
          const token = segment[index]!;
          const assignment = 'word' in token ? /^([A-Za-z_]\w*)=(.*)$/s.exec(token.word) : null;
          if (assignment === null) break;
          env[assignment[1]!] = assignment[2]!;
        }
        const rest = segment.slice(index);
        const substitution = segment.find((token) => 'substitution' in token);
        const pipe = rest.find((token) => 'operator' in token);
        const argv = rest.flatMap((token) => ('word' in token ? [token.word] : []));
        if (argv[0] === 'export') {
          for (const word of argv.slice(1)) {
            const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(word);
            if (assignment !== null) exported[assignment[1]!] = vars[assignment[1]!] = assignment[2]!;
          }
        }
        if (argv.length === 0 && substitution === undefined) {
          // Only assignments: shell variables for the next commands.
          Object.assign(vars, env);
          continue;
        }
        const unsupported = substitution !== undefined ? `command substitution ${'substitution' in substitution ? substitution.substitution : ''}`
          : pipe !== undefined ? 'a pipe' : unknown.size > 0 ? `unknown variable(s) ${[...unknown].join(', ')}` : undefined;
        commands.push({ file, line, block: block.line, text, argv, env, ...(unsupported === undefined ? {} : { unsupported }) });
      }
    }
  }
  return commands;
}
