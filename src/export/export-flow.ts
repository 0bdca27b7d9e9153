import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { readVerifiedRun } from '../skills/read-verified-run.js';
import { readSkillFile } from '../skills/skill-library.js';
import { SkillError } from '../skills/skill-error.js';
import { ExportError } from './export-error.js';
import { programFromRun, programFromSkill, type ExportProgram } from './export-program.js';
import { renderMaestroFlow, maestroCondition } from './render-maestro-flow.js';
import { renderWdioConfig } from './render-wdio-config.js';
import { renderWdioSpec, wdioCondition } from './render-wdio-spec.js';
import { splitBranches } from './split-branches.js';
import type { ExportResult, StepCoverage } from './step-coverage.js';
import type { WdioTarget } from './wdio-target.js';
import { findTraceFile } from '../trace/read-trace.js';

export const exportFormats = ['wdio', 'maestro'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/**
 * The export program of a run folder (a folder with `trace.jsonl`, read by
 * `readVerifiedRun`: only a run whose task check passed, its verified rounds) or a skill
 * file (`*.yaml`). Throws `ExportError` saying what was wrong and what to do.
 */
export function readExportSource(source: string): ExportProgram {
  if (!existsSync(source)) throw new ExportError({ message: `${source} does not exist: pass a run folder (traces/<task>/<mode>-r<k>, with trace.jsonl) or a skill file (*.yaml)` });
  if (statSync(source).isDirectory()) {
    if (findTraceFile(source) === undefined) throw new ExportError({ message: `${source} has no trace.jsonl: pass one run folder (traces/<task>/<mode>-r<k> under a bench --out)` });
    let run;
    try {
      run = readVerifiedRun(source);
    } catch (error) {
      if (SkillError.isInstance(error)) throw new ExportError({ message: error.message, cause: error });
      throw error;
    }
    if ('reason' in run) throw new ExportError({ message: `${source} cannot be exported: ${run.reason}` });
    return programFromRun(run);
  }
  if (!/\.ya?ml$/i.test(source)) throw new ExportError({ message: `${source} is neither a run folder nor a skill file (*.yaml)` });
  try {
    return programFromSkill(readSkillFile(source), source);
  } catch (error) {
    if (SkillError.isInstance(error)) throw new ExportError({ message: error.message, cause: error });
    throw error;
  }
}

/** The base of the output files: `out/x.spec.ts` → `out/x` (also `.ts`, `.yaml`, `.yml`). */
export function outputBase(out: string): string {
  return out.replace(/(\.wdio\.conf\.ts|\.spec\.ts|\.ts|\.ya?ml)$/i, '');
}

/**
 * Renders a program in a format: for `wdio` a spec (`<base>.spec.ts`) and its
 * configuration (`<base>.wdio.conf.ts`), for `maestro` a flow (`<base>.yaml`). A skill
 * branch point whose guards the format cannot test splits the output into one file per
 * alternative (`<base>.branch-<k>...`). Returns the files and each step's coverage.
 */
export function renderExport(program: ExportProgram, format: ExportFormat, base: string, target: WdioTarget): ExportResult {
  const canTest = format === 'wdio' ? (guard: Parameters<typeof wdioCondition>[0]) => wdioCondition(guard) !== undefined : (guard: Parameters<typeof maestroCondition>[0]) => maestroCondition(guard) !== undefined;
  const variants = splitBranches(program, canTest);
  const files: { name: string; text: string }[] = [];
  const steps: StepCoverage[] = [];
  for (const variant of variants) {
    const name = variant.suffix === '' ? base : `${base}.${variant.suffix}`;
    const header = [`Runs on: ${target.profile}`];
    if (format === 'wdio') {
      const spec = renderWdioSpec(variant.program, { settleMs: target.settleMs, settleSource: `settle.timeoutMs of ${target.profile}`, header: [...header, `Configuration: ${path.basename(name)}.wdio.conf.ts (npx wdio run it)`], ...(variant.note === undefined ? {} : { note: variant.note }) });
      files.push({ name: `${name}.spec.ts`, text: spec.text }, { name: `${name}.wdio.conf.ts`, text: renderWdioConfig(target, `${path.basename(name)}.spec.ts`) });
      steps.push(...spec.steps);
    } else {
      const flow = renderMaestroFlow(variant.program, { header, ...(variant.note === undefined ? {} : { note: variant.note }) });
      files.push({ name: `${name}.yaml`, text: flow.text });
      steps.push(...flow.steps);
    }
  }
  return { files, steps };
}
