import { Document, isSeq, type YAMLSeq } from 'yaml';
import { projections } from '../skills/skill-parameters.js';
import type { Predicate } from '../verify/predicate.js';
import { printPredicate, printQuery } from '../verify/print-predicate.js';
import { passwordPlaceholder } from '../util/redactor.js';
import { isSlider, type ExportAction, type ExportEntry, type ExportProgram, type ExportStep } from './export-program.js';
import { compactSelector, maestroEnvName, maestroSelector, maestroText, type MaestroSelector } from './maestro-selector.js';
import type { StepCoverage } from './step-coverage.js';

/** One command with the comment written above it. */
interface Commented {
  readonly command: unknown;
  readonly comment?: string;
}

/** Classes whose node is itself the checkable one (Maestro's `checked` reads the node it selects). */
const checkableRole = /Switch|CheckBox|CheckedTextView|RadioButton|ToggleButton|CompoundButton/;

/** Commands for one action, and what could not be said. */
function actionCommands(action: ExportAction, next: ExportAction | undefined): { commands: Commented[]; problems: string[] } {
  const what = `${action.unit}${action.navigate ? ` ${action.navigate}` : ''}${action.target ? ` ${printQuery(action.target)}` : ''}`;
  if (action.unit === 'navigate') {
    if (action.navigate === 'back') return { commands: [{ command: 'back', comment: what }], problems: [] };
    if (action.navigate === 'home') return { commands: [{ command: { pressKey: 'Home' }, comment: what }], problems: [] };
    return { commands: [{ command: { launchApp: maestroText(action.value ?? '') }, comment: what }], problems: [] };
  }
  if (!action.target) return { commands: [], problems: [`${what}: no target`] };
  const found = maestroSelector(action.target);
  if ('problem' in found) return { commands: [], problems: [`${what}: ${found.problem}`] };
  const problems = found.lossy.map((lost) => `${what}: ${lost}`);
  const selector = compactSelector(found.selector);
  if (action.longPress === true || action.unit === 'long-press') return { commands: [{ command: { longPressOn: selector }, comment: what }], problems };
  switch (action.unit) {
    case 'fill': {
      if (isSlider(action)) return { commands: [], problems: [...problems, `${what} = ${action.value}%: a slider is dragged to a percentage of its bar, which Maestro's swipe cannot aim at an element's own bounds`] };
      if (action.value === undefined) return { commands: [{ command: { tapOn: selector }, comment: what }], problems };
      const text = action.value === passwordPlaceholder ? '${PASSWORD}' : maestroText(action.value);
      return { commands: [{ command: { tapOn: selector }, comment: `${what}: focus, clear, type` }, { command: { eraseText: 50 } }, { command: { inputText: text } }], problems };
    }
    case 'toggle':
      return { commands: toggleCommands(action, found.selector, what, problems), problems };
    case 'scroll': {
      const direction = (action.direction ?? 'down').toUpperCase();
      const nextTarget = next?.target ? maestroSelector(next.target) : undefined;
      if (nextTarget && !('problem' in nextTarget)) return { commands: [{ command: { scrollUntilVisible: { element: compactSelector(nextTarget.selector), direction } }, comment: `${what}: until the next target shows` }], problems };
      if (direction === 'DOWN') return { commands: [{ command: 'scroll', comment: what }], problems };
      const finger = { UP: 'DOWN', LEFT: 'RIGHT', RIGHT: 'LEFT' }[direction] ?? 'UP';
      return { commands: [{ command: { swipe: { direction: finger, from: selector } }, comment: `${what} (a swipe ${finger.toLowerCase()})` }], problems };
    }
    default:
      return { commands: [{ command: { tapOn: selector }, comment: what }], problems };
  }
}

/** A toggle taps only when its node is not in the wanted state: a conditional when the target is the checkable node itself. */
function toggleCommands(action: ExportAction, selector: MaestroSelector, what: string, problems: string[]): Commented[] {
  if (action.checked === undefined) return [{ command: { tapOn: compactSelector(selector) }, comment: what }];
  if (action.role !== undefined && checkableRole.test(action.role)) {
    return [{ command: { runFlow: { when: { visible: { ...selector, checked: !action.checked } }, commands: [{ tapOn: compactSelector(selector) }] } }, comment: `${what}: tap only when not ${action.checked ? 'checked' : 'unchecked'} yet` }];
  }
  problems.push(`${what}: the row's switch state cannot be read by Maestro's checked selector (it reads the node it selects); tapped unconditionally`);
  return [{ command: { tapOn: compactSelector(selector) }, comment: `${what}: tapped unconditionally (see above)` }];
}

/** Assertions for an expectation, and the parts that became comments. */
export function maestroAssertions(predicate: Predicate, negated = false): { commands: unknown[]; problems: string[] } {
  const skip = (why: string) => ({ commands: [], problems: [`${negated ? 'not ' : ''}${printPredicate(predicate)}: ${why}`] });
  switch (predicate.kind) {
    case 'and': {
      if (negated) return skip('a negated "and" has no Maestro assertion');
      const parts = predicate.operands.map((operand) => maestroAssertions(operand));
      return { commands: parts.flatMap((part) => part.commands), problems: parts.flatMap((part) => part.problems) };
    }
    case 'not':
      return maestroAssertions(predicate.operand, !negated);
    case 'exists':
    case 'absent': {
      const found = maestroSelector(predicate.query);
      if ('problem' in found) return skip(found.problem);
      const visible = (predicate.kind === 'exists') !== negated;
      return { commands: [visible ? { assertVisible: compactSelector(found.selector) } : { assertNotVisible: compactSelector(found.selector) }], problems: found.lossy.map((lost) => `${printPredicate(predicate)}: ${lost}`) };
    }
    case 'text': {
      if (predicate.query.text || predicate.query.desc || predicate.query.label || predicate.query.hint) return skip('the node is named by a label and its text is checked too: Maestro\'s one text selector cannot say both');
      const withText = maestroSelector({ ...predicate.query, text: predicate.match });
      if ('problem' in withText) return skip(withText.problem);
      const command = negated ? { assertNotVisible: compactSelector(withText.selector) } : { assertVisible: compactSelector(withText.selector) };
      return { commands: [command], problems: withText.lossy.map((lost) => `${printPredicate(predicate)}: ${lost}`) };
    }
    case 'checked':
    case 'selected':
    case 'enabled':
    case 'focused': {
      const found = maestroSelector(predicate.query);
      if ('problem' in found) return skip(found.problem);
      return { commands: [{ assertVisible: { ...found.selector, [predicate.kind]: !negated } }], problems: [`${printPredicate(predicate)}: Maestro reads the state of the node it selects, not of a row's one checkable node (holds when the query names that node)`] };
    }
    default:
      return skip('Maestro has no assertion for it (or, counts, a change against the screen before, package or activity)');
  }
}

/** The commands of one step (actions, then its expectation as assertions), with its coverage. */
function stepCommands(step: ExportStep): { commands: Commented[]; coverage: StepCoverage } {
  const commands: Commented[] = [];
  const problems: string[] = [];
  step.actions.forEach((action, index) => {
    const rendered = actionCommands(action, step.actions[index + 1]);
    commands.push(...rendered.commands);
    problems.push(...rendered.problems);
  });
  let asserted = false;
  for (const action of step.actions) {
    if (action.unit === 'fill' && action.value !== undefined && action.value !== passwordPlaceholder && action.target) {
      const found = maestroSelector(action.target);
      if (!('problem' in found) && found.selector.text === undefined) {
        commands.push({ command: { assertVisible: { ...found.selector, text: maestroText(action.value).replace(/[\\^$.|?*+()[\]{}]/g, (char) => (char === '$' ? char : `\\${char}`)) } } });
        asserted = true;
      }
    }
  }
  if (step.expectation !== undefined && 'problem' in step.expectation) problems.push(`its expectation does not parse (${step.expectation.problem})`);
  else if (step.expectation !== undefined) {
    const assertions = maestroAssertions(step.expectation);
    problems.push(...assertions.problems);
    commands.push(...assertions.commands.map((command, index) => ({ command, ...(index === 0 ? { comment: `verified expectation: ${step.expectationText}` } : {}) })));
    asserted ||= assertions.commands.length > 0;
  }
  if (step.verifiedByModel) problems.push('only the loop\'s model verifier passed a unit of it');
  const head = `${step.intent}${problems.length > 0 ? `\nNOT EXPORTED: ${problems.join('\nNOT EXPORTED: ')}` : ''}`;
  const first = commands[0];
  const withHead = first === undefined ? [] : [{ command: first.command, comment: `${head}${first.comment === undefined ? '' : `\n${first.comment}`}` }, ...commands.slice(1)];
  return { commands: withHead, coverage: { intent: step.intent, full: problems.length === 0, asserted, comments: problems } };
}

/** A guard as a Maestro `when`, or undefined when it has none (only exists / absent of a selector). */
export function maestroCondition(guard: Predicate | { readonly problem: string }): Record<string, unknown> | undefined {
  if ('problem' in guard) return undefined;
  const query = guard.kind === 'not' && (guard.operand.kind === 'exists' || guard.operand.kind === 'absent') ? guard.operand : guard;
  if (query.kind !== 'exists' && query.kind !== 'absent') return undefined;
  const found = maestroSelector(query.query);
  if ('problem' in found || found.lossy.length > 0) return undefined;
  const visible = (query.kind === 'exists') === (guard.kind !== 'not');
  return visible ? { visible: compactSelector(found.selector) } : { notVisible: compactSelector(found.selector) };
}

function entryCommands(entries: readonly ExportEntry[], coverage: StepCoverage[]): Commented[] {
  const out: Commented[] = [];
  for (const entry of entries) {
    if (entry.kind === 'step') {
      const rendered = stepCommands(entry);
      coverage.push(rendered.coverage);
      out.push(...rendered.commands);
      continue;
    }
    // Maestro runs every `when` that holds: each alternative's guard also says the earlier ones did not (a skill takes the first that holds).
    entry.branches.forEach((branch, index) => {
      const commands = entryCommands(branch.steps, coverage).map((item) => item.command);
      out.push({ command: { runFlow: { when: maestroCondition(branch.when), commands } }, comment: `branch ${index + 1} of ${entry.branches.length}: when ${branch.whenText}${index > 0 ? ' (and no earlier alternative ran: each guard is checked at this point in turn)' : ''}` });
    });
  }
  return out;
}

/**
 * A Maestro flow for an export program: `appId` and `launchApp`, each action as `tapOn` /
 * `longPressOn` / `inputText` / `scrollUntilVisible` / `back`, each verified expectation as
 * `assertVisible` / `assertNotVisible`; a skill's parameters become the flow's `env`
 * (with their example values) and its branch points `runFlow` with `when`. What Maestro
 * cannot say is a comment above the step.
 */
export function renderMaestroFlow(program: ExportProgram, options: { readonly header?: readonly string[]; readonly note?: string } = {}): { text: string; steps: StepCoverage[] } {
  const coverage: StepCoverage[] = [];
  const env = envOf(program);
  const config = { appId: program.app, name: program.title, ...(Object.keys(env).length > 0 ? { env } : {}) };
  // A run that started on the launcher (it opened the app itself) starts from Home, not inside the app.
  const start: Commented = program.startPackage === program.app ? { command: 'launchApp' } : { command: { pressKey: 'Home' }, comment: `the run started on ${program.startPackage}, not in the app` };
  const commands: Commented[] = [start, ...entryCommands(program.entries, coverage)];
  const head = new Document(config);
  head.commentBefore = [
    ` Exported by \`senseact export\` from ${program.source === 'run' ? 'the verified run' : 'the skill'} ${program.origin}`,
    ` ${program.source === 'run' ? 'Task' : 'Skill'} ${program.name}`,
    ...(options.header ?? []).map((line) => ` ${line}`),
    ...(options.note === undefined ? [] : [` This file is ${options.note}.`]),
    ...program.leftOut.map((why) => ` Left out (not verified in the run): ${why}`),
    ...(program.answer === undefined ? [] : [` NOT EXPORTED: ${program.answer}; an answer read from the screen is data, not a check`]),
  ].join('\n');
  const body = new Document(commands.map((item) => item.command));
  if (isSeq(body.contents)) {
    const items = (body.contents as YAMLSeq).items as { commentBefore?: string | null }[];
    commands.forEach((item, index) => {
      const node = items[index];
      if (node && item.comment !== undefined && typeof node === 'object') node.commentBefore = item.comment.split('\n').map((line) => ` ${line}`).join('\n');
    });
  }
  const text = `${head.toString({ lineWidth: 0 })}---\n${body.toString({ lineWidth: 0 })}`;
  return { text, steps: coverage };
}

/** The flow's env: each parameter and projection a step uses, valued from its example. */
function envOf(program: ExportProgram): Record<string, string> {
  const env: Record<string, string> = {};
  const used = JSON.stringify(program.entries);
  for (const [name, parameter] of Object.entries(program.parameters)) {
    if (parameter.type === 'password') {
      env['PASSWORD'] = '';
      continue;
    }
    for (const [projection, value] of Object.entries(projections(parameter.type, parameter.example))) {
      const key = projection === '' ? name : `${name}.${projection}`;
      if (used.includes(`{${key}}`)) env[maestroEnvName(key)] = value;
    }
  }
  return env;
}
