// Code and docs cite only documents that ship in the repository: every `X.md` named in
// src/, tests/, scripts/, docs/, the READMEs and the lint configs exists (beside the
// citing file or from the repository root), every `docs/architecture.md §n` names a
// section the document has, and nothing points at an issue tracker that does not ship
// with the code ("issue 12"). A comment that needs the why says it, or cites a doc here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const self = path.join(repoRoot, 'tests/unit/repo/cited-documents.test.ts');
const scannedFile = /\.(ts|js|mjs|cjs|sh|md)$/;
/**
 * A document's name as cited: a path with a folder (`docs/skills.md`, `tasks/README.md`) or
 * an upper-case name (`README.md`, `CONTRIBUTING.md`). A bare lower-case name (`notes.md`) is data
 * a test or a task types, not a citation.
 */
const documentMention = /(?<![\w./-])((?:\.{1,2}\/)?(?:[\w-]+\/)+[\w.-]+\.md|[A-Z][A-Z0-9_-]*\.md)\b/g;
const issueMention = /\bissues? #?\d+/i;
const architectureDoc = 'docs/architecture.md';

function scannedFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return ['node_modules', '__snapshots__', 'fixtures'].includes(entry.name) ? [] : scannedFiles(full);
    return scannedFile.test(entry.name) ? [full] : [];
  });
}

/** The section numbers `docs/architecture.md` has (`## 2.`, `### 2.6`). */
function architectureSections(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((match) => match[1]!));
}

/** The section numbers a line cites after naming the architecture doc: `§2.6`, `§2.5–2.7`, `§2.7, §2.9`. */
function citedSections(line: string): string[] {
  const at = line.indexOf(`${architectureDoc} §`);
  if (at === -1) return [];
  const tail = line.slice(at + architectureDoc.length).split(/[)`"]/)[0]!;
  return [...tail.matchAll(/(?:§|–)(\d+(?:\.\d+)?)/g)].map((match) => match[1]!);
}

/** `file:line: problem` for every citation of something the repository does not hold. */
function badCitations(file: string, text: string, sections: ReadonlySet<string>): string[] {
  const where = path.relative(repoRoot, file);
  return text.split('\n').flatMap((line, index) => {
    const problems: string[] = [];
    for (const match of line.matchAll(documentMention)) {
      const name = match[1]!;
      if (!existsSync(path.resolve(repoRoot, name)) && !existsSync(path.resolve(path.dirname(file), name))) problems.push(`${name} is not in the repository`);
    }
    for (const section of citedSections(line)) if (!sections.has(section)) problems.push(`${architectureDoc} has no §${section}`);
    const issue = issueMention.exec(line);
    if (issue) problems.push(`"${issue[0]}" cites the tracker, which does not ship: say why in the comment, or cite a doc`);
    return problems.map((problem) => `${where}:${index + 1}: ${problem}`);
  });
}

describe('cited documents', () => {
  const sections = architectureSections(readFileSync(path.join(repoRoot, architectureDoc), 'utf8'));
  const files = [
    ...['src', 'tests', 'scripts', 'docs'].flatMap((folder) => scannedFiles(path.join(repoRoot, folder))),
    ...['README.md', 'tasks/README.md', 'devices/README.md', 'eslint.config.js', '.dependency-cruiser.cjs', 'vitest.config.ts'].map((name) => path.join(repoRoot, name)),
  ].filter((file) => file !== self);

  it('scans what it should, and reads the architecture sections', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain(path.join(repoRoot, 'docs/skills.md'));
    expect(files).toContain(path.join(repoRoot, 'eslint.config.js'));
    expect([...sections]).toEqual(expect.arrayContaining(['1', '2', '2.1', '2.6', '2.10', '10']));
  });

  it('every cited document and section is in the repository, and no comment cites the tracker', () => {
    expect(files.flatMap((file) => badCitations(file, readFileSync(file, 'utf8'), sections))).toEqual([]);
  });

  it('negative control: a missing document, a missing section and an issue number are each flagged', () => {
    const flagged = (line: string) => badCitations(path.join(repoRoot, 'src/sample.ts'), line, sections);
    expect(flagged('// the loop of PLAN.md §1.6, as GUIDE.md says')).toEqual(['src/sample.ts:1: PLAN.md is not in the repository', 'src/sample.ts:1: GUIDE.md is not in the repository']);
    expect(flagged('/** Planning aids (issue 18). */')).toHaveLength(1);
    expect(flagged('/** Planning aids (Issue #18). */')).toHaveLength(1);
    expect(flagged(' * The gate (docs/architecture.md §2.5–2.70).')).toEqual(['src/sample.ts:1: docs/architecture.md has no §2.70']);
    expect(flagged(' * see docs/nowhere.md and ../docs/missing.md')).toHaveLength(2);
    expect(flagged("const file = 'grocery_list.md'; // a note's name in a task, not a document")).toEqual([]);
    // What is there passes: a doc from the root, a README beside the citing file, sections that exist.
    expect(flagged(' * The gate (docs/architecture.md §2.7, §2.9; docs/predicates.md; README.md).')).toEqual([]);
    expect(badCitations(path.join(repoRoot, 'docs/grid.md'), 'see [predicates](predicates.md) and `devices/README.md`', sections)).toEqual([]);
    expect(flagged('const name = "com.mdiwebma.tasks"; // a package, not a document')).toEqual([]);
  });
});
