import type { Command } from 'commander';
import { evaluatePredicate } from '../../verify/evaluate-predicate.js';
import { jsonDepth, maxPredicateDepth, maxPredicateJsonDepth, safeParsePredicate } from '../../verify/parse-predicate.js';
import { predicateSchema, type Predicate } from '../../verify/predicate.js';
import type { Result } from '../../util/result.js';
import { printPredicate } from '../../verify/print-predicate.js';
import type { VerifyOutcome } from '../../verify/verify-outcome.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { readScreen } from './read-screen.js';

interface CheckOptions {
  before?: string;
  json?: boolean;
  package?: string;
  activity?: string;
}

/** A predicate in its JSON form (as a model writes it), validated by `predicateSchema`. */
function parseJsonPredicate(text: string): Result<Predicate, Error> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: new Error(`the predicate looks like JSON but does not parse: ${error instanceof Error ? error.message : String(error)}`) };
  }
  if (jsonDepth(value) > maxPredicateJsonDepth) {
    return { success: false, error: new Error(`the JSON predicate nests deeper than ${maxPredicateJsonDepth} levels of objects and arrays (${maxPredicateDepth} levels of not/and/or/within/near); write a flatter predicate`) };
  }
  const checked = predicateSchema.safeParse(value);
  if (checked.success) return { success: true, value: checked.data };
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
  return { success: false, error: new Error(`the JSON predicate does not match predicateSchema: ${issues}. The JSON form is in docs/predicates.md.`) };
}

const exitCodeOf = { pass: exitCodes.ok, fail: exitCodes.failure, inconclusive: exitCodes.inconclusive } as const;

function renderOutcome(predicate: string, result: VerifyOutcome): string {
  const lines = [`predicate: ${predicate}`, `outcome: ${result.outcome}`, `reason: ${result.reason}`];
  if (result.code !== undefined) lines.push(`code: ${result.code}`);
  if (result.evidence.length > 0) {
    lines.push('evidence:');
    for (const ref of result.evidence) {
      const label = ref.text || ref.contentDesc;
      const [left, top, right, bottom] = ref.bounds;
      lines.push(`  ${ref.screen} #${ref.index} ${ref.className}${ref.resourceId ? ` id=${ref.resourceId}` : ''}${label ? ` ${JSON.stringify(label)}` : ''} [${left},${top}][${right},${bottom}]`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `senseact check <screen> '<predicate>' [--before <screen>] [--package p] [--activity a] [--json]`: evaluates a
 * predicate (docs/predicates.md, text or JSON form) on a screen and prints outcome, reason and evidence
 * nodes. Exit 0 pass, 1 fail, 3 inconclusive, 2 bad input (unreadable screen, or a
 * predicate parse error, printed with a caret under the column).
 */
export const checkCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('check')
    .description('Evaluate a predicate on a UI dump: exit 0 pass, 1 fail, 3 inconclusive, 2 bad input.')
    .argument('<screen>', 'the screen to check (a UI dump file)')
    .argument('<predicate>', 'a predicate in the text form of docs/predicates.md, e.g. \'checked(is=switch, near(text="Wi-Fi"))\', or its JSON form')
    .option('--before <screen>', 'the screen before the action, for screenChanged / newSurface / dismissedSurface')
    .option('--json', 'print JSON: { predicate, outcome, reason, evidence, code? }')
    .option('--package <name>', 'the foreground package of <screen> (dumps do not always carry it)')
    .option('--activity <name>', 'the foreground activity of <screen> (dumps do not carry it), for activity checks')
    .action(async (screenFile: string, predicateText: string, options: CheckOptions) => {
      const parsed = predicateText.trimStart().startsWith('{') ? parseJsonPredicate(predicateText) : safeParsePredicate(predicateText);
      if (!parsed.success) {
        io.stderr(`senseact check: ${parsed.error.message}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const observation = { ...(options.package === undefined ? {} : { packageName: options.package }), ...(options.activity === undefined ? {} : { activity: options.activity }) };
      const after = await readScreen(screenFile, io, 'check', observation);
      const before = options.before === undefined ? undefined : await readScreen(options.before, io, 'check');
      if (!after || (options.before !== undefined && !before)) {
        setExitCode(exitCodes.badInput);
        return;
      }
      const result = evaluatePredicate(parsed.value, before ? { after, before } : { after });
      const printed = printPredicate(parsed.value);
      io.stdout(options.json ? `${JSON.stringify({ predicate: printed, ...result }, null, 2)}\n` : renderOutcome(printed, result));
      setExitCode(exitCodeOf[result.outcome]);
    });
};
