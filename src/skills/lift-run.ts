import type { Predicate, Query, StringMatch } from '../verify/predicate.js';
import { parsePredicate } from '../verify/parse-predicate.js';
import { printPredicate, printQuery } from '../verify/print-predicate.js';
import type { RecordedAction, VerifiedRun } from './read-verified-run.js';
import { printAnswerRule } from './answer-rule.js';
import { findNumbers, findPasswords, findQuoted, findTimes, liftLiteral, placeholder, type Bindings, type FoundLiteral } from './skill-parameters.js';
import type { LiftNote, ParameterType, SkillAction, SkillAnswer, SkillParameter, SkillStep } from './skill-schema.js';

/** A run's steps with the instruction's literals lifted into typed parameters. */
export interface LiftedRun {
  readonly app: string;
  /** The instruction with `{parameter}` slots. */
  readonly template: string;
  readonly parameters: Readonly<Record<string, SkillParameter>>;
  readonly precondition: string;
  readonly steps: readonly SkillStep[];
  /** For a question: where the answer is read after the last step. */
  readonly answer?: SkillAnswer;
  readonly source: string;
  readonly notes: readonly LiftNote[];
}

const typeOrder: readonly ParameterType[] = ['password', 'text', 'time', 'option', 'number'];

function overlaps(literal: FoundLiteral, taken: readonly FoundLiteral[]): boolean {
  return taken.some((other) => literal.start < other.end && other.start < literal.end);
}

/** Every string value a query compares (text, desc, id, hint, label; within/near too). */
function queryValues(query: Query): string[] {
  const values: string[] = [];
  for (const field of ['text', 'desc', 'id', 'hint', 'label'] as const) {
    const match = query[field];
    if (match && match.op !== 'matches') values.push(match.value);
  }
  if (query.within) values.push(...queryValues(query.within));
  if (query.near) values.push(...queryValues(query.near));
  return values;
}

/** The literals of a run's actions and expectations that a parameter may recur in. */
function actionLiterals(run: VerifiedRun): { literal: string; where: string }[] {
  const literals: { literal: string; where: string }[] = [];
  run.steps.forEach((step, index) => {
    for (const action of step.actions) {
      if (action.target) for (const value of queryValues(action.target)) literals.push({ literal: value, where: `the target of step ${index + 1} ("${step.intent}")` });
      if (action.value !== undefined) literals.push({ literal: action.value, where: `the ${action.unit} value of step ${index + 1} ("${step.intent}")` });
    }
  });
  if (run.answer) for (const value of queryValues(run.answer.rule.target)) literals.push({ literal: value, where: 'the target the answer is read from' });
  if (run.answer?.rule.from === 'text' && run.answer.rule.row) for (const value of queryValues(run.answer.rule.row)) literals.push({ literal: value, where: 'the row the answer is read in' });
  return literals;
}

/** Option labels: literals of the targets that the instruction names as a proper noun (capitalised, not its first word). */
function findOptions(instruction: string, run: VerifiedRun): FoundLiteral[] {
  const options: FoundLiteral[] = [];
  const labels = new Set<string>();
  const rule = run.answer?.rule;
  const targets = [...run.steps.flatMap((step) => step.actions.flatMap((action) => [action.target, action.target?.near])), rule?.target, rule?.target.near, rule?.from === 'text' ? rule.row : undefined];
  for (const target of targets) {
    for (const field of ['text', 'desc'] as const) {
      const match = target?.[field];
      if (match?.op === 'equals' && match.value.trim().length >= 2 && !/^\d+$/.test(match.value)) labels.add(match.value.trim());
    }
  }
  for (const label of labels) {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const match of instruction.matchAll(new RegExp(`(?<![\\w])${escaped}(?![\\w])`, 'gi'))) {
      const start = match.index ?? 0;
      if (start === 0 || !/^[A-Z0-9]/.test(match[0])) continue;
      options.push({ type: 'option', value: match[0], start, end: start + match[0].length });
    }
  }
  // The longest label first: "Deep space" before "space".
  return options.sort((a, b) => (b.end - b.start) - (a.end - a.start));
}

/**
 * Typed text the instruction names without quotes: a fill value of the run that stands
 * in the instruction word for word (`Find a Contact Alice` typed `Alice` into the
 * search). Not its first word, and not a number (numbers are their own type).
 */
function findTyped(instruction: string, run: VerifiedRun): FoundLiteral[] {
  const values = new Set(run.steps.flatMap((step) => step.actions.filter((action) => action.unit === 'fill' && action.value !== undefined).map((action) => (action.value ?? '').trim())));
  const typed: FoundLiteral[] = [];
  for (const value of values) {
    if (value.length < 2 || /^[\d\s/.+()-]+$/.test(value)) continue;
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const match of instruction.matchAll(new RegExp(`(?<![\\w])${escaped}(?![\\w])`, 'g'))) {
      const start = match.index ?? 0;
      if (start > 0) typed.push({ type: 'text', value, start, end: start + value.length });
    }
  }
  return typed;
}

/** Two slots with only spaces between them could split a value anywhere, so a template with them never matches: such an unquoted literal stays literal. */
function besideAnother(literal: FoundLiteral, others: readonly FoundLiteral[], instruction: string): boolean {
  return others.some((other) => other !== literal && ((other.end <= literal.start && instruction.slice(other.end, literal.start).trim() === '') || (literal.end <= other.start && instruction.slice(literal.end, other.start).trim() === '')));
}

/** A StringMatch with a literal lifted; text and option placeholders compare without case. */
function liftMatch(match: StringMatch, bindings: Bindings): StringMatch {
  if (match.op === 'matches') return match;
  const lifted = liftLiteral(match.value, bindings);
  if (lifted.used.length === 0) return match;
  const caseless = lifted.used.some((used) => {
    const name = /^\{([a-z0-9]+)/.exec(used)?.[1] ?? '';
    const type = bindings[name]?.type;
    return type === 'text' || type === 'option';
  });
  if (match.op === 'digits') return { ...match, value: lifted.text };
  return { ...match, value: lifted.text, ...(caseless ? { ignoreCase: true } : {}) };
}

function liftQuery(query: Query, bindings: Bindings): Query {
  const lifted: Query = { ...query };
  for (const field of ['text', 'desc', 'id', 'hint', 'label'] as const) {
    const match = query[field];
    if (match) lifted[field] = liftMatch(match, bindings);
  }
  if (query.within) lifted.within = liftQuery(query.within, bindings);
  if (query.near) lifted.near = liftQuery(query.near, bindings);
  return lifted;
}

function liftPredicate(predicate: Predicate, bindings: Bindings): Predicate {
  switch (predicate.kind) {
    case 'not':
      return { kind: 'not', operand: liftPredicate(predicate.operand, bindings) };
    case 'and':
    case 'or':
      return { kind: predicate.kind, operands: predicate.operands.map((operand) => liftPredicate(operand, bindings)) };
    case 'text':
      return { ...predicate, query: liftQuery(predicate.query, bindings), match: liftMatch(predicate.match, bindings) };
    case 'package':
    case 'activity':
    case 'screenChanged':
    case 'newSurface':
    case 'dismissedSurface':
      return predicate;
    default:
      return { ...predicate, query: liftQuery(predicate.query, bindings) };
  }
}

/**
 * A target with a lifted label: it keeps the class of the node it named when it names no
 * id or class yet, since on the recorded screen the label alone was unique but another
 * value may also label another kind of node.
 */
function liftTarget(action: RecordedAction, bindings: Bindings): Query | undefined {
  if (!action.target) return undefined;
  const lifted = liftQuery(action.target, bindings);
  const changed = printQuery(lifted) !== printQuery(action.target);
  if (!changed || lifted.is !== undefined || lifted.id !== undefined || action.role === undefined) return lifted;
  return { is: action.role, ...lifted };
}

function liftAction(action: RecordedAction, bindings: Bindings): SkillAction {
  const target = liftTarget(action, bindings);
  return {
    unit: action.unit,
    ...(target ? { target: printQuery(target) } : {}),
    ...(action.fallback ? { fallback: printQuery(liftQuery(action.fallback, bindings)) } : {}),
    ...(action.navigate ? { navigate: action.navigate } : {}),
    ...(action.value === undefined ? {} : { value: liftLiteral(action.value, bindings).text }),
    ...(action.checked === undefined ? {} : { checked: action.checked }),
    ...(action.direction === undefined ? {} : { direction: action.direction }),
    ...(action.longPress === undefined ? {} : { longPress: action.longPress }),
  };
}

/**
 * Lifts a verified run into a parameterised procedure (NSI): the literals of the
 * instruction — quoted text, times, option labels the app's screens show, numbers — that
 * recur in the run's actions become typed parameters, and every recurrence in targets,
 * values and expectations becomes a placeholder (a time recurs through its projections:
 * `3PM` as `3 o'clock`, `0 minutes`, `PM`). A literal that does not recur stays literal;
 * a token two parameters could explain is left alone. `notes` says what was lifted and
 * why, and what was not.
 */
export function liftRun(run: VerifiedRun): LiftedRun {
  const instruction = run.instruction;
  const literals = actionLiterals(run);
  const notes: LiftNote[] = [];
  const accepted: FoundLiteral[] = [];
  const passwords = findPasswords(instruction);
  const quoted = findQuoted(instruction).filter((literal) => !overlaps(literal, passwords));
  const typed = findTyped(instruction, run).filter((literal) => !overlaps(literal, [...quoted, ...passwords]));
  const others = [...passwords, ...quoted, ...findTimes(instruction), ...findOptions(instruction, run), ...findNumbers(instruction), ...typed];
  const apart = typed.filter((literal) => {
    if (!besideAnother(literal, others.filter((other) => !overlaps(other, [literal])), instruction)) return true;
    notes.push({ parameter: '-', literal: literal.value, why: 'not lifted: the typed text stands next to another value with only a space between (a template could not tell where one ends)' });
    return false;
  });
  const candidates: Record<ParameterType, FoundLiteral[]> = { password: passwords, text: [...quoted, ...apart], time: findTimes(instruction), option: findOptions(instruction, run), number: findNumbers(instruction) };
  for (const type of typeOrder) {
    for (const literal of candidates[type]) {
      if (overlaps(literal, accepted)) continue;
      const probe: Bindings = { probe: { type, value: literal.value } };
      const recurrence = literals.find((entry) => liftLiteral(entry.literal, probe).used.length > 0);
      if (!recurrence) {
        if (type !== 'option') notes.push({ parameter: '-', literal: literal.value, why: `not lifted: the ${type} does not recur in the actions` });
        continue;
      }
      accepted.push(literal);
      notes.push({ parameter: type, literal: literal.value, why: `${type} recurs in ${recurrence.where} ("${recurrence.literal}")` });
    }
  }
  accepted.sort((a, b) => a.start - b.start);
  const counts: Partial<Record<ParameterType, number>> = {};
  const bindings: Record<string, { type: ParameterType; value: string }> = {};
  const parameters: Record<string, SkillParameter> = {};
  const names = new Map<FoundLiteral, string>();
  for (const literal of accepted) {
    const count = (counts[literal.type] ?? 0) + 1;
    counts[literal.type] = count;
    const name = count === 1 ? literal.type : `${literal.type}${count}`;
    names.set(literal, name);
    bindings[name] = { type: literal.type, value: literal.value };
    parameters[name] = { type: literal.type, example: literal.value };
  }
  for (const note of notes) {
    const literal = accepted.find((candidate) => candidate.value === note.literal);
    if (literal && note.parameter !== '-') note.parameter = names.get(literal) ?? note.parameter;
  }
  let template = instruction;
  for (const literal of [...accepted].reverse()) template = `${template.slice(0, literal.start)}${placeholder(names.get(literal) ?? '', '')}${template.slice(literal.end)}`;
  const ambiguous = new Set<string>();
  for (const entry of literals) for (const problem of liftLiteral(entry.literal, bindings).ambiguous) ambiguous.add(problem);
  for (const problem of ambiguous) notes.push({ parameter: '-', literal: problem, why: 'not lifted there: more than one parameter could explain it' });
  const answerTarget = run.answer?.rule.from === 'checked' ? printQuery(run.answer.rule.target) : undefined;
  const steps: SkillStep[] = run.steps.map((step) => ({
    intent: liftLiteral(step.intent, bindings).text,
    actions: step.actions.map((action) => liftAction(action, bindings)),
    ...(step.expectation.trim() === '' ? {} : { expect: printPredicate(liftPredicate(withoutAnswerState(parsePredicate(step.expectation), answerTarget), bindings)) }),
    ...(step.verifiedByModel ? { verifier: 'model' as const } : {}),
  }));
  const precondition = printPredicate({ kind: 'package', match: { op: 'equals', value: run.start.packageName } });
  const answer: SkillAnswer | undefined = run.answer ? printAnswerRule(run.answer.rule, (query) => printQuery(liftQuery(query, bindings))) : undefined;
  return { app: run.app, template, parameters, precondition, steps, ...(answer ? { answer } : {}), source: run.dir, notes };
}

/**
 * A yes/no answer read from a node's checked state: a step's expectation that tests that
 * state tests the answer, which is what varies from one run to the next ("Does my 4PM
 * alarm vibrate?" Yes: checked(text="Vibrate"); the 9AM one: No). It keeps the node's
 * presence (`exists`) and drops the state.
 */
function withoutAnswerState(predicate: Predicate, answerTarget: string | undefined): Predicate {
  if (answerTarget === undefined) return predicate;
  switch (predicate.kind) {
    case 'checked':
    case 'selected':
      return printQuery(predicate.query) === answerTarget ? { kind: 'exists', query: predicate.query } : predicate;
    case 'not': {
      const { operand } = predicate;
      if ((operand.kind === 'checked' || operand.kind === 'selected') && printQuery(operand.query) === answerTarget) return { kind: 'exists', query: operand.query };
      return { kind: 'not', operand: withoutAnswerState(operand, answerTarget) };
    }
    case 'and':
    case 'or':
      return { kind: predicate.kind, operands: predicate.operands.map((operand) => withoutAnswerState(operand, answerTarget)) };
    default:
      return predicate;
  }
}
