import type { NodeIndex, UiNode, UiTree } from '../ui/ui-tree.js';
import { assertNever } from '../util/assert-never.js';
import { findNodes, subtreeEnd } from '../verify/find-nodes.js';
import { parseQuery } from '../verify/parse-predicate.js';
import type { Query } from '../verify/predicate.js';
import type { SkillAnswer } from './skill-schema.js';
import { rowLabels } from './target-query.js';
import { findNumbers, findQuoted, findTimes, liftLiteral, parseTime, projections, type Bindings } from './skill-parameters.js';

/**
 * How a question skill reads its answer from the live screen, with no model: the answer
 * is never stored, only where it was seen (`skillAnswerSchema`). Induced from the screen
 * on which a verified run gave its answer (`induceAnswerRule`), replayed by `readAnswer`.
 * - `text`: the text (or content-desc) of the one node `target` finds; `take` says which
 *   part: all of it, the one time it holds, or what sits between a fixed `prefix` and
 *   `suffix`.
 * - `checked`: `yes` when the one checkable node `target` finds is checked, else `no`.
 * - `count`: how many nodes `target` finds in the given checked state.
 * Here the target is a parsed query (the skill file holds its text form, placeholders allowed).
 */
export type RecordedAnswer = SkillAnswer extends infer Rule ? (Rule extends SkillAnswer ? Omit<Rule, 'target' | 'row'> & { readonly target: Query } & ('row' extends keyof Rule ? { readonly row?: Query } : unknown) : never) : never;

/** A rule as the skill file holds it, its queries printed by `print` (which may lift literals into placeholders). */
export function printAnswerRule(rule: RecordedAnswer, print: (query: Query) => string): SkillAnswer {
  if (rule.from !== 'text') return { ...rule, target: print(rule.target) };
  const { row, ...rest } = rule;
  return { ...rest, target: print(rule.target), ...(row === undefined ? {} : { row: print(row) }) };
}

/** A rule of a skill file with its queries filled (`fill`) and parsed; throws `PredicateParseError` on a query that does not parse. */
export function parseAnswerRule(rule: SkillAnswer, fill: (text: string) => string): RecordedAnswer {
  if (rule.from !== 'text') return { ...rule, target: parseQuery(fill(rule.target)) };
  const { row, ...rest } = rule;
  return { ...rest, target: parseQuery(fill(rule.target)), ...(row === undefined ? {} : { row: parseQuery(fill(row)) }) };
}

const yesWords = /^(yes|yeah|true)$/i;
const noWords = /^(no|false)$/i;
/** Words of a counting question that say which state is counted, when both states give the answer. */
const onWords = /\b(on|enabled|done|checked|completed|finished|active|open|ticked)\b/i;
const offWords = /\b(off|disabled|unchecked|undone|unfinished|inactive|not done)\b/i;

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

function shortId(resourceId: string): string {
  const slash = resourceId.indexOf(':id/');
  return slash >= 0 ? resourceId.slice(slash + 4) : resourceId;
}

function simpleClass(node: UiNode): string {
  return node.className.split('.').at(-1) ?? node.className;
}

/** The instruction's literals (quoted text, times, numbers) as bindings, so a screen value can be tied to them through their projections (`9AM` shows as `9:00 AM`). */
function instructionBindings(instruction: string): Bindings {
  const bindings: Record<string, { type: 'time' | 'text' | 'number'; value: string }> = {};
  for (const [index, literal] of [...findQuoted(instruction), ...findTimes(instruction), ...findNumbers(instruction)].entries()) bindings[`p${index}`] = { type: literal.type as 'time' | 'text' | 'number', value: literal.value };
  return bindings;
}

/**
 * True when a screen label is named by the instruction: its words appear there in order,
 * or it shows one of the instruction's literals whole (a quoted text, a number, a time as
 * `9:00 AM` or `21:00`; a time's `AM` alone names nothing).
 */
function namedByInstruction(label: string, instruction: string, bindings: Bindings): boolean {
  const value = normalise(label);
  if (value.length < 2) return false;
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(?<![\\w])${escaped}(?![\\w])`, 'i').test(normalise(instruction))) return true;
  return Object.values(bindings).some((binding) => {
    const time = binding.type === 'time' ? projections('time', binding.value) : undefined;
    const shown = time ? [`${time.hour ?? ''}:${time.minute2 ?? ''}`, `${time.hour24 ?? ''}:${time.minute2 ?? ''}`] : [binding.value];
    return shown.some((token) => liftLiteral(label, { probe: { type: 'text', value: token } }).used.length > 0);
  });
}

/** A query names a node when it finds that node and no other on the screen. */
function names(query: Query, node: UiNode, tree: UiTree): boolean {
  const found = findNodes(query, tree).matches;
  return found.length === 1 && found[0] === node.index;
}

interface Naming {
  readonly query: Query;
  /** The row label the node is read beside, when `query` alone finds others too (`inRow`). */
  readonly row?: Query;
  /** The query is tied to the instruction (a label it names), not only to the screen's layout. */
  readonly named: boolean;
}

/**
 * Queries that name `node` alone without using `avoid` (the answer: it changes with the
 * data): its own label, its resource-id, or its id/class near a label of its row. Never a
 * rank or a position: a reordered list must not change what is read.
 */
function namingsOf(node: UiNode, tree: UiTree, instruction: string, bindings: Bindings, avoid: string): Naming[] {
  const holdsAnswer = (value: string): boolean => avoid !== '' && normalise(value).includes(normalise(avoid));
  const equals = (value: string) => ({ op: 'equals' as const, value });
  const own: { query: Query; label: string }[] = [];
  const id = node.resourceId === '' ? undefined : shortId(node.resourceId);
  for (const [field, value] of [['desc', node.contentDesc], ['text', node.text]] as const) {
    if (value.trim() !== '' && !holdsAnswer(value)) own.push({ query: { [field]: equals(value.trim()) }, label: value });
  }
  const namings: Naming[] = own.map(({ query, label }) => ({ query, named: namedByInstruction(label, instruction, bindings) }));
  const kind: Query = id === undefined ? { is: simpleClass(node) } : { id: equals(id) };
  namings.push({ query: kind, named: false });
  for (const label of rowLabels(node, tree, true)) {
    for (const [field, value] of [['text', label.text], ['desc', label.contentDesc]] as const) {
      if (value.trim() === '' || holdsAnswer(value)) continue;
      const anchor: Query = { [field]: equals(value.trim()) };
      // `near` measures from the first node the anchor finds: an anchor shown twice could measure from either.
      if (findNodes(anchor, tree).matches.length !== 1) continue;
      namings.push({ query: { ...kind, near: { [field]: equals(value.trim()) } }, named: namedByInstruction(value, instruction, bindings) });
    }
  }
  return namings.filter((naming) => names(naming.query, node, tree));
}

/**
 * Of the nodes `query` finds, the one in the row of the one node `row` finds: whose
 * smallest subtree shared with that node holds no other match (a value beside its label,
 * not the screen's other value of the same id). Undefined when none or several are.
 */
function inRow(query: Query, row: Query, tree: UiTree): NodeIndex | undefined {
  const anchors = findNodes(row, tree).matches;
  const anchor = anchors.length === 1 ? tree.nodes[anchors[0] as NodeIndex] : undefined;
  if (!anchor) return undefined;
  const matches = findNodes(query, tree).matches;
  const own = matches.filter((index) => {
    let shared = tree.nodes[index];
    while (shared && !(anchor.index >= shared.index && anchor.index < subtreeEnd(tree, shared.index))) shared = tree.nodes[shared.parent];
    if (!shared) return false;
    const end = subtreeEnd(tree, shared.index);
    return matches.every((other) => other === index || other < shared.index || other >= end);
  });
  return own.length === 1 ? own[0] : undefined;
}

/**
 * Namings of a node its id (or class) finds with others on the screen: that query, read in
 * the row of a label beside it shown once on the screen (`inRow`) — the Tokyo clock's
 * time, not the home clock's, where `near` would measure from the label's centre to the
 * nearer of the two.
 */
function rowNamings(node: UiNode, tree: UiTree, instruction: string, bindings: Bindings, avoid: string): Naming[] {
  const holdsAnswer = (value: string): boolean => avoid !== '' && normalise(value).includes(normalise(avoid));
  const kind: Query = node.resourceId === '' ? { is: simpleClass(node) } : { id: { op: 'equals', value: shortId(node.resourceId) } };
  const namings: Naming[] = [];
  for (const label of rowLabels(node, tree, true)) {
    for (const [field, value] of [['text', label.text], ['desc', label.contentDesc]] as const) {
      if (value.trim() === '' || holdsAnswer(value)) continue;
      const row: Query = { [field]: { op: 'equals', value: value.trim() } };
      if (inRow(kind, row, tree) === node.index) namings.push({ query: kind, row, named: namedByInstruction(value, instruction, bindings) });
    }
  }
  return namings;
}

/** The best naming: one tied to the instruction first, then any. */
function bestNaming(namings: readonly Naming[]): Naming | undefined {
  return namings.find((naming) => naming.named) ?? namings[0];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a `text` rule takes from a value that holds the answer, or undefined when it cannot say. */
function takeOf(value: string, answer: string): Pick<Extract<RecordedAnswer, { from: 'text' }>, 'take' | 'prefix' | 'suffix'> | undefined {
  if (normalise(value) === normalise(answer)) return { take: 'whole' };
  if (parseTime(answer) && findTimes(value).length === 1 && normalise(findTimes(value)[0]?.value ?? '') === normalise(answer)) return { take: 'time' };
  const at = value.toLowerCase().indexOf(answer.trim().toLowerCase());
  if (at < 0 || value.toLowerCase().indexOf(answer.trim().toLowerCase(), at + 1) >= 0) return undefined;
  return { take: 'between', prefix: value.slice(0, at), suffix: value.slice(at + answer.trim().length) };
}

/** One way the answer is explained; `rank` orders them: tied to the instruction first, then a whole value over a part. */
type Explained = { readonly rule: RecordedAnswer; readonly named: boolean; readonly rank: number; readonly node?: UiNode };

function textRules(answer: string, tree: UiTree, instruction: string, bindings: Bindings): Explained[] {
  const found: Explained[] = [];
  for (const node of tree.nodes) {
    for (const [field, value] of [['text', node.text], ['desc', node.contentDesc]] as const) {
      if (!normalise(value).includes(normalise(answer))) continue;
      const take = takeOf(value, answer);
      if (!take) continue;
      // A row label counts only where nothing else names the node: a label or id of its own first.
      const own = namingsOf(node, tree, instruction, bindings, answer);
      const naming = bestNaming(own.length > 0 ? own : rowNamings(node, tree, instruction, bindings, answer));
      if (naming) found.push({ rule: { from: 'text', target: naming.query, ...(naming.row ? { row: naming.row } : {}), field, ...take }, named: naming.named, rank: (naming.named ? 2 : 0) + (take.take === 'whole' ? 1 : 0), node });
    }
  }
  return found;
}

function checkedRules(answer: string, tree: UiTree, instruction: string, bindings: Bindings): Explained[] {
  const yes = yesWords.test(answer.trim());
  if (!yes && !noWords.test(answer.trim())) return [];
  const found: Explained[] = [];
  for (const node of tree.nodes) {
    if (!node.checkable || node.checked !== yes) continue;
    // Only a checkable node the instruction names: the question is about it, not about whatever switch is on the screen.
    const naming = namingsOf(node, tree, instruction, bindings, '').find((candidate) => candidate.named);
    if (naming) found.push({ rule: { from: 'checked', target: naming.query, yes: yes ? answer.trim() : 'Yes', no: yes ? 'No' : answer.trim() }, named: true, rank: 3, node });
  }
  return found;
}

function countRules(answer: string, tree: UiTree, instruction: string): Explained[] {
  if (!/^\d+$/.test(answer.trim())) return [];
  const wanted = Number(answer.trim());
  const groups = new Map<string, UiNode[]>();
  for (const node of tree.nodes) {
    if (!node.checkable) continue;
    const key = `${node.className}|${node.resourceId}`;
    groups.set(key, [...(groups.get(key) ?? []), node]);
  }
  const found: Explained[] = [];
  for (const nodes of groups.values()) {
    const first = nodes[0] as UiNode;
    const target: Query = first.resourceId === '' ? { is: simpleClass(first) } : { is: simpleClass(first), id: { op: 'equals', value: shortId(first.resourceId) } };
    // The query must find exactly this group, so the count read later is the count seen now.
    if (findNodes(target, tree).matches.length !== nodes.length) continue;
    const checked = nodes.filter((node) => node.checked).length;
    const states: ('checked' | 'unchecked')[] = [];
    if (checked === wanted) states.push('checked');
    if (nodes.length - checked === wanted) states.push('unchecked');
    let state: 'checked' | 'unchecked' | undefined = states.length === 1 ? states[0] : undefined;
    // Both states give the number: the question's own word says which it counts, or nothing does.
    if (states.length === 2 && onWords.test(instruction) !== offWords.test(instruction)) state = onWords.test(instruction) ? 'checked' : 'unchecked';
    if (state) found.push({ rule: { from: 'count', target, state }, named: false, rank: 1 });
  }
  return found;
}

/**
 * Finds how a verified answer was read from the screen it was given on: a node whose
 * text holds it (named by a query that does not use the answer itself), a checkable
 * node the instruction names whose state is the yes/no answer, or a group of checkable
 * nodes whose count in one state is the number. Exactly one explanation of the best
 * rank must remain (a checkable node the instruction names; then a value tied to the
 * instruction's words; then a whole value over a part; among equals, a node the run's
 * steps brought onto the screen over one shown on the `start` screen); several or none
 * is no rule, and says why. The rule is checked to read the same answer back from that screen.
 */
export function induceAnswerRule(answer: string, instruction: string, tree: UiTree, start?: UiTree): { rule: RecordedAnswer } | { problem: string } {
  if (answer.trim() === '') return { problem: 'the answer is empty' };
  const bindings = instructionBindings(instruction);
  const explained = [...textRules(answer, tree, instruction, bindings), ...checkedRules(answer, tree, instruction, bindings), ...countRules(answer, tree, instruction)];
  const best = Math.max(...explained.map((entry) => entry.rank));
  let pool = explained.filter((entry) => entry.rank === best);
  // A tie goes to what the run went to look for: a node its steps brought onto the screen (the Vibrate box an expanded alarm shows), not one shown from the start.
  const shownAtStart = new Set(start?.nodes.map((node) => node.fingerprint) ?? []);
  const fresh = pool.filter((entry) => entry.node !== undefined && !shownAtStart.has(entry.node.fingerprint));
  if (start && fresh.length > 0 && fresh.length < pool.length) pool = fresh;
  const distinct = [...new Map(pool.map((entry) => [JSON.stringify(entry.rule), entry.rule])).values()];
  if (distinct.length === 0) return { problem: `the answer "${answer}" is not read from the final screen: no node shows it under a label or id that names it alone, and no checkable node the instruction names or count of them gives it` };
  if (distinct.length > 1) return { problem: `the answer "${answer}" is explained ${distinct.length} ways on the final screen; a skill never picks one` };
  const rule = distinct[0] as RecordedAnswer;
  const back = readAnswer(rule, tree);
  if (!('answer' in back) || normalise(back.answer) !== normalise(answer)) return { problem: `the rule found for "${answer}" reads ${'answer' in back ? `"${back.answer}"` : back.problem} back` };
  return { rule };
}

/**
 * Reads an answer from a live screen by a rule whose target is already filled: the one
 * node the target finds (none or several: a problem, never a pick), the part `take`
 * names; the checked state of the one node; or the count of nodes in a state.
 */
export function readAnswer(rule: RecordedAnswer, tree: UiTree): { answer: string } | { problem: string } {
  if (rule.from === 'text' && rule.row !== undefined) {
    const index = inRow(rule.target, rule.row, tree);
    if (index === undefined) return { problem: 'the answer\'s row label finds no single node, or no single target node shares a row with it' };
    return readText(rule, tree.nodes[index] as UiNode);
  }
  const matches = findNodes(rule.target, tree).matches;
  if (rule.from === 'count') {
    const nodes = matches.map((index) => tree.nodes[index]).filter((node): node is UiNode => node !== undefined);
    // No such node at all: not "zero", but not the screen the count was read on.
    if (nodes.length === 0) return { problem: 'the answer\'s target finds no node to count: this is not the screen it was read on' };
    const count = rule.state === 'any' ? nodes.length : nodes.filter((node) => node.checked === (rule.state === 'checked')).length;
    return { answer: String(count) };
  }
  if (matches.length !== 1) return { problem: `the answer's target finds ${matches.length} nodes, not one` };
  const node = tree.nodes[matches[0] as NodeIndex] as UiNode;
  if (rule.from === 'checked') {
    if (!node.checkable) return { problem: 'the answer\'s target is not checkable' };
    return { answer: node.checked ? rule.yes : rule.no };
  }
  return readText(rule, node);
}

/** The part of a node's text (or description) a `text` rule takes. */
function readText(rule: Extract<RecordedAnswer, { from: 'text' }>, node: UiNode): { answer: string } | { problem: string } {
  const value = (rule.field === 'text' ? node.text : node.contentDesc).trim();
  if (value === '') return { problem: `the answer's target shows no ${rule.field}` };
  switch (rule.take) {
    case 'whole':
      return { answer: value };
    case 'time': {
      const times = findTimes(value);
      return times.length === 1 && times[0] ? { answer: times[0].value.trim() } : { problem: `the answer's target shows ${times.length} times, not one` };
    }
    case 'between': {
      const match = new RegExp(`^${escapeRegex(rule.prefix ?? '')}(.+?)${escapeRegex(rule.suffix ?? '')}$`, 's').exec(value);
      return match?.[1] ? { answer: match[1].trim() } : { problem: `"${value}" does not read as ${JSON.stringify(rule.prefix ?? '')}…${JSON.stringify(rule.suffix ?? '')}` };
    }
    default:
      return assertNever(rule.take, 'answer take');
  }
}
