import type { TaskRunResult } from '../agent/task-run-result.js';
import type { BenchResults } from './bench-results.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * The benchmark as JUnit XML, the format CI systems read: one `<testsuite>` per mode,
 * one `<testcase>` per task × mode × repeat (`classname` = suite.mode, `name` = task id
 * and repeat). A failed task is a `<failure>` whose message is the task check that
 * failed or why the agent stopped; an infrastructure error is an `<error>`; runs that
 * never finished (an interrupted benchmark) are `<skipped>`. Pure.
 */
export function renderJunit(results: BenchResults): string {
  const suite = results.options.suite;
  const suites = results.options.modes.map((mode) => {
    const runs = results.tasks.filter((task) => task.mode === mode);
    const finished = new Set(runs.map((task) => `${task.id}#${task.repeat}`));
    const missing: string[] = [];
    for (let repeat = 0; repeat < results.options.repeat; repeat++) {
      for (const id of results.options.taskIds) if (!finished.has(`${id}#${repeat}`)) missing.push(testcase(suite, mode, id, repeat, 0, '      <skipped message="not run: the benchmark was interrupted (finish it with --resume)"/>\n'));
    }
    const failures = runs.filter((task) => task.error === null && !task.success).length;
    const errors = runs.filter((task) => task.error !== null).length;
    const seconds = runs.reduce((sum, task) => sum + task.latency.totalMs, 0) / 1000;
    const cases = [...runs.map((task) => testcase(suite, mode, task.id, task.repeat, task.latency.totalMs / 1000, body(task))), ...missing];
    return `  <testsuite name="${attribute(`${suite} ${mode}`)}" tests="${runs.length + missing.length}" failures="${failures}" errors="${errors}" skipped="${missing.length}" time="${seconds.toFixed(3)}">\n${cases.join('')}  </testsuite>\n`;
  });
  const policy = results.oracle ? 'oracle policy (reference solutions, no model)' : `llm policy (model ${results.options.modelLabel})`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${attribute(`senseact bench ${suite}, ${policy}`)}" time="${(results.wallTimeMs / 1000).toFixed(3)}">\n${suites.join('')}</testsuites>\n`;
}

/** Writes {@link renderJunit} to `file` atomically. */
export async function writeJunit(file: string, results: BenchResults): Promise<void> {
  await writeFileAtomic(file, renderJunit(results));
}

function testcase(suite: string, mode: string, id: string, repeat: number, seconds: number, inner: string): string {
  const open = `    <testcase classname="${attribute(`${suite}.${mode}`)}" name="${attribute(`${id} r${repeat}`)}" time="${seconds.toFixed(3)}"`;
  return inner === '' ? `${open}/>\n` : `${open}>\n${inner}    </testcase>\n`;
}

function body(task: TaskRunResult): string {
  const trace = `trace: ${task.traceDir}`;
  if (task.error !== null) return `      <error message="${attribute(task.error)}" type="infrastructure">${text(`${task.reason}\n${trace}`)}</error>\n`;
  if (!task.success) return `      <failure message="${attribute(task.reason)}" type="task-failed">${text(`${task.reason}\nsteps: ${task.steps}\n${trace}`)}</failure>\n`;
  return '';
}

/** XML 1.0 cannot carry most control characters at all, escaped or not: they are dropped. */
function clean(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function text(value: string): string {
  return clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
