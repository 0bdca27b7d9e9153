import type { Predicate } from '../verify/predicate.js';
import { printQuery } from '../verify/print-predicate.js';
import { passwordPlaceholder } from '../util/redactor.js';
import { projections } from '../skills/skill-parameters.js';
import { isSlider, type ExportAction, type ExportEntry, type ExportProgram, type ExportStep } from './export-program.js';
import type { StepCoverage } from './step-coverage.js';
import { wdioAssertions } from './wdio-assertions.js';
import { jsText, wdioSelector, wdioXpath } from './wdio-selector.js';

/** How the spec waits: the device profile's settle. */
export interface WdioSpecOptions {
  /** How long an expectation may take to show after a step (ms): the device profile's `settle.timeoutMs`. */
  readonly settleMs: number;
  /** A line saying where the settle comes from (e.g. `devices/sim.yaml settle.timeoutMs`). */
  readonly settleSource: string;
  /** Lines for the header (how to run it, where the capabilities are). */
  readonly header?: readonly string[];
  /** Why this file is one alternative of a skill's branch point. */
  readonly note?: string;
}

const indentOf = (depth: number): string => '  '.repeat(depth);
const comment = (text: string): string => `// ${text.replace(/\n/g, ' ')}`;

const runtime = [
  `/** The node itself when checkable, else its checkable node inside (as checked(q) reads a row). */`,
  `const checkableIn = (xpath: string): string => \`(\${xpath})/descendant-or-self::*[@checkable="true"]\`;`,
  `/** A toggle's checkable node: from its target up to the nearest node that holds one. */`,
  `const toggleOf = (xpath: string): string => \`(\${xpath})/ancestor-or-self::*[descendant-or-self::*[@checkable="true"]][1]/descendant-or-self::*[@checkable="true"]\`;`,
  ``,
  `/** Where a user's tap lands: the node's nearest clickable node (itself, or the row around a label), as the run tapped its unit. */`,
  `async function clickableOf(selector: string, flag = '@clickable="true"') {`,
  `  const element = await $(selector);`,
  `  const around = await element.$(\`./ancestor-or-self::*[\${flag}][1]\`);`,
  `  return (await around.isExisting()) ? around : element;`,
  `}`,
  ``,
  `async function tap(selector: string): Promise<void> {`,
  `  await (await clickableOf(selector)).click();`,
  `}`,
  ``,
  `async function longPress(selector: string): Promise<void> {`,
  `  const element = await clickableOf(selector, '@long-clickable="true" or @clickable="true"');`,
  `  await driver.execute('mobile: longClickGesture', { elementId: element.elementId });`,
  `}`,
  ``,
  `/** Focus the field, clear it and type (as the run did). */`,
  `async function fill(selector: string, text: string): Promise<void> {`,
  `  const field = await $(selector);`,
  `  await field.click();`,
  `  await field.setValue(text);`,
  `}`,
  ``,
  `/** Tap the toggle only when it is not in the wanted state already. */`,
  `async function setChecked(xpath: string, wanted: boolean): Promise<void> {`,
  `  const box = await $(toggleOf(xpath));`,
  `  if ((await box.getAttribute('checked')) !== String(wanted)) await tap(toggleOf(xpath));`,
  `}`,
  ``,
  `/** Drag a slider's thumb from its middle to \`percent\` along the bar, as the run's fill of a slider. */`,
  `async function slide(selector: string, percent: number): Promise<void> {`,
  `  const bar = await $(selector);`,
  `  const { x, y, width, height } = await driver.getElementRect(bar.elementId);`,
  `  const row = Math.round(y + height / 2);`,
  `  await driver.action('pointer', { parameters: { pointerType: 'touch' } }).move({ x: Math.round(x + width / 2), y: row }).down().move({ x: Math.round(x + ((width - 1) * percent) / 100), y: row, duration: 300 }).up().perform();`,
  `}`,
  ``,
  `/** One scroll gesture over 70% of the container, as the run's scroll unit. */`,
  `async function scroll(selector: string, direction: 'up' | 'down' | 'left' | 'right'): Promise<void> {`,
  `  const container = await $(selector);`,
  `  await driver.execute('mobile: scrollGesture', { elementId: container.elementId, direction, percent: 0.7 });`,
  `}`,
];

/** The spec lines of one action, or the comment that replaces it. */
function actionLines(action: ExportAction): { lines: string[]; problem?: string } {
  const described = comment(`${action.unit}${action.navigate ? ` ${action.navigate}` : ''}${action.target ? ` ${printQuery(action.target)}` : ''}${action.value === undefined ? '' : ` = "${action.value}"`}${action.checked === undefined ? '' : ` checked=${action.checked}`}`);
  if (action.unit === 'navigate') {
    if (action.navigate === 'back') return { lines: [described, 'await driver.back();'] };
    if (action.navigate === 'home') return { lines: [described, "await driver.execute('mobile: pressKey', { keycode: 3 });"] };
    return { lines: [described, `await driver.activateApp(${jsText(action.value ?? '')});`] };
  }
  if (!action.target) return { lines: [comment(`${action.unit} without a target: not exported`)], problem: `a ${action.unit} without a target` };
  const selector = action.unit === 'toggle' ? wdioXpath(action.target) : wdioSelector(action.target);
  if ('problem' in selector) return { lines: [comment(`NOT EXPORTED: ${action.unit} ${printQuery(action.target)}: ${selector.problem}`)], problem: selector.problem };
  const value = action.value === passwordPlaceholder ? 'requiredEnv(\'SENSEACT_PASSWORD\')' : action.value === undefined ? undefined : jsText(action.value);
  if (action.longPress === true || action.unit === 'long-press') return { lines: [described, `await longPress(${selector.code});`] };
  switch (action.unit) {
    case 'toggle':
      if (action.checked === undefined) return { lines: [described, `await tap(${selector.code});`] };
      return { lines: [described, `await setChecked(${selector.code}, ${action.checked});`] };
    case 'fill':
      if (value !== undefined && isSlider(action)) return { lines: [described, `await slide(${selector.code}, ${Number(action.value)});`] };
      return { lines: value === undefined ? [described, `await tap(${selector.code});`] : [described, `await fill(${selector.code}, ${value});`] };
    case 'scroll':
      return { lines: [described, `await scroll(${selector.code}, '${action.direction ?? 'down'}');`] };
    default:
      return { lines: [described, `await tap(${selector.code});`] };
  }
}

/** Assertions the units' wanted states give (a toggle's checked state, a field's text). */
function unitAssertions(action: ExportAction): string[] {
  if (!action.target) return [];
  const xpath = wdioXpath(action.target);
  if ('problem' in xpath) return [];
  if (action.unit === 'toggle' && action.checked !== undefined) return [`await expect($(toggleOf(${xpath.code}))).toHaveAttribute('checked', '${action.checked}', settle);`];
  if (action.unit === 'fill' && action.value !== undefined && action.value !== passwordPlaceholder && !isSlider(action)) return [`await expect($(${xpath.code})).toHaveText(${jsText(action.value)}, settle);`];
  return [];
}

/** The lines of one step and how completely it was exported. */
function stepLines(step: ExportStep): { lines: string[]; coverage: StepCoverage } {
  const lines: string[] = [];
  const comments: string[] = [];
  let unitAsserted = false;
  for (const action of step.actions) {
    const rendered = actionLines(action);
    lines.push(...rendered.lines);
    if (rendered.problem !== undefined) comments.push(rendered.problem);
    // A unit's wanted state is checked right after it, as the loop checked its contract (a later commit may close its dialog).
    // A step only the model verifier passed had a unit whose state the tree could not show (a checkbox that left with its list): its states are not asserted.
    const states = rendered.problem === undefined && !step.verifiedByModel ? unitAssertions(action) : [];
    lines.push(...states);
    unitAsserted ||= states.length > 0;
  }
  const asserts: string[] = [];
  if (step.expectation !== undefined) {
    lines.push(comment(`verified expectation: ${step.expectationText}`));
    if ('problem' in step.expectation) comments.push(`its expectation does not parse (${step.expectation.problem})`);
    else {
      const assertions = wdioAssertions(step.expectation);
      asserts.push(...assertions.lines);
      comments.push(...assertions.comments);
      for (const why of assertions.comments) lines.push(comment(`NOT ASSERTED: ${why}`));
    }
  } else lines.push(comment('the run verified this step by its units\' contracts (no expectation to assert beyond their states)'));
  if (step.verifiedByModel) {
    comments.push('only the loop\'s model verifier passed a unit of it (its contract was inconclusive on the tree): its units\' states are not asserted, only its expectation');
    lines.push(comment('NOT ASSERTED: the units\' states (only the model verifier passed one of them; the tree could not show it)'));
  }
  lines.push(...asserts);
  return { lines, coverage: { intent: step.intent, full: comments.length === 0, asserted: unitAsserted || asserts.length > 0, comments } };
}

/** A guard as a boolean expression, or undefined when a spec cannot test it. */
export function wdioCondition(guard: Predicate | { readonly problem: string }): string | undefined {
  if ('problem' in guard) return undefined;
  switch (guard.kind) {
    case 'exists':
    case 'absent': {
      const selector = wdioSelector(guard.query);
      if ('problem' in selector) return undefined;
      return `${guard.kind === 'absent' ? '!' : ''}(await $(${selector.code}).isExisting())`;
    }
    case 'checked': {
      const xpath = wdioXpath(guard.query);
      return 'problem' in xpath ? undefined : `((await $(checkableIn(${xpath.code})).getAttribute('checked')) === 'true')`;
    }
    case 'not': {
      const inner = wdioCondition(guard.operand);
      return inner === undefined ? undefined : `!${inner}`;
    }
    case 'and':
    case 'or': {
      const parts = guard.operands.map(wdioCondition);
      return parts.some((part) => part === undefined) ? undefined : `(${parts.join(guard.kind === 'and' ? ' && ' : ' || ')})`;
    }
    default:
      return undefined;
  }
}

/** The `it` blocks (or the conditional of a branch point inside one) of a list of entries. */
function entryBlocks(entries: readonly ExportEntry[], depth: number, coverage: StepCoverage[]): string[] {
  const lines: string[] = [];
  let open: string | undefined;
  const close = (): void => {
    if (open !== undefined) lines.push(`${indentOf(depth)}});`, '');
    open = undefined;
  };
  for (const entry of entries) {
    if (entry.kind === 'step') {
      // One `it` per intent: rounds of the same intent in a row share it.
      if (open !== entry.intent) {
        close();
        lines.push(`${indentOf(depth)}it(${jsText(entry.intent)}, async () => {`);
        open = entry.intent;
      }
      const rendered = stepLines(entry);
      coverage.push(rendered.coverage);
      lines.push(...rendered.lines.map((line) => `${indentOf(depth + 1)}${line}`));
      continue;
    }
    close();
    lines.push(`${indentOf(depth)}it(${jsText(`branch: ${entry.branches.map((branch) => branch.whenText).join(' | ')}`)}, async () => {`);
    entry.branches.forEach((branch, index) => {
      lines.push(`${indentOf(depth + 1)}${index === 0 ? 'if' : '} else if'} (${wdioCondition(branch.when) ?? 'false'}) {`, `${indentOf(depth + 2)}${comment(`when ${branch.whenText}${branch.note === undefined ? '' : ` (${branch.note})`}`)}`);
      for (const step of branch.steps) {
        const rendered = stepLines(step);
        coverage.push(rendered.coverage);
        lines.push(`${indentOf(depth + 2)}${comment(step.intent)}`, ...rendered.lines.map((line) => `${indentOf(depth + 2)}${line}`));
      }
    });
    lines.push(`${indentOf(depth + 1)}} else {`, `${indentOf(depth + 2)}throw new Error(${jsText(`no alternative's guard holds: ${entry.branches.map((branch) => branch.whenText).join('; ')}`)});`, `${indentOf(depth + 1)}}`, `${indentOf(depth)}});`, '');
  }
  close();
  return lines;
}

/**
 * A WebdriverIO spec (TypeScript, Mocha, globals from `@wdio/globals`, as WebdriverIO's
 * test runner sets up) for an export program: one `describe` (for a skill, one per
 * example of its parameters), one `it` per intent, each action through a selector from
 * its verified target query, and after each step its verified expectation as
 * assertions that wait up to the step's settle. What a spec cannot say is a comment.
 */
export function renderWdioSpec(program: ExportProgram, options: WdioSpecOptions): { text: string; steps: StepCoverage[] } {
  const coverage: StepCoverage[] = [];
  const parameterised = Object.keys(program.parameters).length > 0;
  const body = entryBlocks(program.entries, parameterised ? 2 : 1, coverage);
  const head = [
    comment(`Exported by \`senseact export\` from ${program.source === 'run' ? 'the verified run' : 'the skill'} ${program.origin}`),
    comment(`${program.source === 'run' ? 'Task' : 'Skill'} ${program.name}: "${program.title}" (app ${program.app})`),
    ...(options.header ?? []).map(comment),
    ...(options.note === undefined ? [] : [comment(`This file is ${options.note}.`)]),
    ...program.leftOut.map((why) => comment(`Left out (not verified in the run): ${why}`)),
    ...(program.answer === undefined ? [] : [comment(`NOT EXPORTED: ${program.answer}; an answer read from the screen is data, not a check`)]),
    `import { $, $$, driver, expect } from '@wdio/globals';`,
    '',
    `/** How long a step's effect may take to show (ms): ${options.settleSource}. */`,
    `const settle = { wait: ${options.settleMs}, interval: 100 };`,
    '',
    ...runtime,
    '',
    ...(program.entries.some((entry) => entry.kind === 'step' && entry.actions.some((action) => action.value === passwordPlaceholder)) ? [
      `function requiredEnv(name: string): string {`,
      `  const value = process.env[name];`,
      `  if (value === undefined || value === '') throw new Error(\`\${name} is not set: the run typed a password, which is never exported; set \${name} to it\`);`,
      `  return value;`,
      `}`,
      '',
    ] : []),
  ];
  const describe = parameterised ? parameterisedDescribe(program, body) : [`describe(${jsText(program.title)}, () => {`, ...body, '});'];
  // `$$` and `requiredEnv` are imported/defined for assertions that may not occur: keep the linter of a user's project quiet.
  const uses = [`void $$;`];
  return { text: `${[...head, ...describe, ...uses].join('\n')}\n`, steps: coverage };
}

function parameterisedDescribe(program: ExportProgram, body: readonly string[]): string[] {
  const example: Record<string, string> = {};
  for (const [name, parameter] of Object.entries(program.parameters)) example[name] = parameter.example;
  return [
    comment('The skill\'s parameters: add a row per case. Projections (`time.hour`, `time.ampm`, ...) are given beside each value.'),
    `const examples: Record<string, string>[] = [${JSON.stringify(withProjections(program, example))}];`,
    '',
    'for (const params of examples) {',
    `  describe(${jsText(program.title)}, () => {`,
    ...body,
    '  });',
    '}',
  ];
}

/** Every placeholder key a program uses, valued from the parameters' examples. */
function withProjections(program: ExportProgram, example: Record<string, string>): Record<string, string> {
  return { ...example, ...projectionValues(program) };
}

const projectionPattern = /\{([a-z][a-z0-9]*)\.([a-z0-9]+)\}/g;

function projectionValues(program: ExportProgram): Record<string, string> {
  const values: Record<string, string> = {};
  const text = JSON.stringify(program.entries);
  for (const match of text.matchAll(projectionPattern)) {
    const name = match[1] ?? '';
    const projection = match[2] ?? '';
    const parameter = program.parameters[name];
    if (parameter) values[`${name}.${projection}`] = projections(parameter.type, parameter.example)[projection] ?? '';
  }
  return values;
}
