import type { AgentMode, PlanningConditions, PolicyName } from '../agent/task-run-result.js';
import { describeSkillsChange, type SkillsDigest } from '../skills/skills-digest.js';
import type { BenchRunOptions } from './bench-results.js';

/** The conditions a resumed benchmark must share with the run it finishes. */
export interface ResumeConditions {
  readonly suite: string;
  readonly modes: readonly AgentMode[];
  readonly device: string | null;
  readonly faults: string | null;
  readonly modelFaults: string | null;
  readonly gateThreshold: number | null;
  readonly temperature: number | null;
  readonly policy: PolicyName;
  readonly modelLabel: string;
  /** The `--skills` folder's digest now, or null without skills. */
  readonly skills: SkillsDigest | null;
  readonly planning: PlanningConditions;
}

/**
 * What differs between the run recorded in results.json and the one asked to resume it,
 * one line per difference naming the option, the recorded value and the asked one. Modes
 * compare as sets (order does not change what runs). Empty when they match. Pure.
 */
export function resumeMismatches(previous: BenchRunOptions, current: ResumeConditions): string[] {
  const show = (value: string | null): string => value ?? '(none)';
  const differences: string[] = [];
  const compare = (option: string, before: string | null, now: string | null): void => {
    if (before !== now) differences.push(`${option}: the run used ${show(before)}, this one ${show(now)}`);
  };
  compare('--suite', previous.suite, current.suite);
  const sameModes = previous.modes.length === current.modes.length && previous.modes.every((mode) => current.modes.includes(mode));
  if (!sameModes) differences.push(`--mode: the run used ${previous.modes.join(',')}, this one ${current.modes.join(',')}`);
  compare('--device', previous.device, current.device);
  compare('--faults', previous.faults, current.faults);
  compare('--model-faults', previous.modelFaults, current.modelFaults);
  compare('--gate-threshold', previous.gateThreshold === null ? null : String(previous.gateThreshold), current.gateThreshold === null ? null : String(current.gateThreshold));
  compare('--temperature', previous.temperature === null ? null : String(previous.temperature), current.temperature === null ? null : String(current.temperature));
  compare('--policy', previous.policy, current.policy);
  compare('model', previous.modelLabel, current.modelLabel);
  compare('--meta-plan', previous.planning.metaPlan ? 'on' : 'off', current.planning.metaPlan ? 'on' : 'off');
  compare('--vote', String(previous.planning.vote), String(current.planning.vote));
  compare('--vote-temperature', previous.planning.voteTemperature === null ? null : String(previous.planning.voteTemperature), current.planning.voteTemperature === null ? null : String(current.planning.voteTemperature));
  compare('--app-memory', previous.planning.appMemory, current.planning.appMemory);
  const skills = skillsMismatch(previous.skills, current.skills);
  if (skills !== undefined) differences.push(skills);
  return differences;
}

/**
 * How the skills differ: another folder (or skills on one side only), or the same folder
 * whose skill files changed since the run started (a replay must meet the skills the
 * finished runs met: skills induced meanwhile would mix two skill sets in one result).
 */
function skillsMismatch(before: BenchRunOptions['skills'], now: SkillsDigest | null): string | undefined {
  if (before === null && now === null) return undefined;
  if (before === null || now === null) return `--skills: the run used ${before === null ? '(none)' : before.dir}, this one ${now === null ? '(none)' : now.dir}`;
  if (before.dir !== now.dir) return `--skills: the run used ${before.dir}, this one ${now.dir}${before.digest === now.digest ? ' (the same skill files)' : ` (${describeSkillsChange(before, now)})`}`;
  if (before.digest !== now.digest) return `--skills ${now.dir}: its skill files changed since the run started (${describeSkillsChange(before, now)}); restore them (the run recorded digest ${before.digest}) or finish in another --out`;
  return undefined;
}
