import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchRunOptionsSchema, type BenchRunOptions } from '../../../src/bench/bench-results.js';
import { resumeMismatches, type ResumeConditions } from '../../../src/bench/resume-conditions.js';
import { noPlanningAids } from '../../../src/agent/task-run-result.js';
import { SkillError } from '../../../src/skills/skill-error.js';
import { skillsDigest } from '../../../src/skills/skills-digest.js';

const recorded = (skills: BenchRunOptions['skills']): BenchRunOptions => benchRunOptionsSchema.parse({
  suite: 'sim', modes: ['senseact'], repeat: 1, concurrency: 1, device: 'sim', faults: null, policy: 'oracle', modelLabel: 'none', taskIds: [], skills,
});
const asked = (skills: ResumeConditions['skills']): ResumeConditions => ({
  suite: 'sim', modes: ['senseact'], device: 'sim', faults: null, modelFaults: null, gateThreshold: null, temperature: null, policy: 'oracle', modelLabel: 'none', skills, planning: noPlanningAids,
});

describe('resuming with a skills folder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'senseact-resume-skills-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  function folder(name: string, files: Record<string, string>): string {
    const dir = path.join(root, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    return dir;
  }

  it('the digest follows the skill files\' contents, not their folder or other files', () => {
    const a = folder('a', { 'one.yaml': 'name: one\n', 'two.yaml': 'name: two\n', 'notes.txt': 'x' });
    const b = folder('b', { 'one.yaml': 'name: one\n', 'two.yaml': 'name: two\n' });
    expect(skillsDigest(a).digest).toBe(skillsDigest(b).digest);
    expect(Object.keys(skillsDigest(a).files)).toEqual(['one.yaml', 'two.yaml']);
    writeFileSync(path.join(b, 'two.yaml'), 'name: two\nedited: true\n');
    expect(skillsDigest(b).digest).not.toBe(skillsDigest(a).digest);
    expect(() => skillsDigest(path.join(root, 'missing'))).toThrow(SkillError);
  });

  it('the same folder with the same skill files resumes; none on both sides resumes', () => {
    const dir = folder('skills', { 'one.yaml': 'name: one\n' });
    expect(resumeMismatches(recorded(skillsDigest(dir)), asked(skillsDigest(dir)))).toEqual([]);
    expect(resumeMismatches(recorded(null), asked(null))).toEqual([]);
    // Results written before skills were recorded read as none.
    const { skills: _skills, ...older } = recorded(null);
    expect(benchRunOptionsSchema.parse(older).skills).toBeNull();
  });

  it('refuses changed, added or removed skill files, naming them and what to do', () => {
    const dir = folder('skills', { 'one.yaml': 'name: one\n', 'two.yaml': 'name: two\n' });
    const before = skillsDigest(dir);
    writeFileSync(path.join(dir, 'one.yaml'), 'name: one\nsteps: []\n');
    writeFileSync(path.join(dir, 'three.yaml'), 'name: three\n');
    rmSync(path.join(dir, 'two.yaml'));
    expect(resumeMismatches(recorded(before), asked(skillsDigest(dir)))).toEqual([
      `--skills ${dir}: its skill files changed since the run started (changed one.yaml; added three.yaml; removed two.yaml); restore them (the run recorded digest ${before.digest}) or finish in another --out`,
    ]);
  });

  it('refuses another folder (saying when its files are the same), and skills on one side only', () => {
    const a = folder('a', { 'one.yaml': 'name: one\n' });
    const b = folder('b', { 'one.yaml': 'name: one\n' });
    const c = folder('c', { 'one.yaml': 'name: other\n' });
    expect(resumeMismatches(recorded(skillsDigest(a)), asked(skillsDigest(b)))).toEqual([`--skills: the run used ${a}, this one ${b} (the same skill files)`]);
    expect(resumeMismatches(recorded(skillsDigest(a)), asked(skillsDigest(c)))).toEqual([`--skills: the run used ${a}, this one ${c} (changed one.yaml)`]);
    expect(resumeMismatches(recorded(skillsDigest(a)), asked(null))).toEqual([`--skills: the run used ${a}, this one (none)`]);
    expect(resumeMismatches(recorded(null), asked(skillsDigest(a)))).toEqual([`--skills: the run used (none), this one ${a}`]);
  });
});

describe('resuming with other planning aids', () => {
  const recordedWith = (planning: BenchRunOptions['planning']): BenchRunOptions => benchRunOptionsSchema.parse({
    suite: 'sim', modes: ['senseact'], repeat: 1, concurrency: 1, device: 'sim', faults: null, policy: 'oracle', modelLabel: 'none', taskIds: [], skills: null, planning,
  });
  const askedWith = (planning: ResumeConditions['planning']): ResumeConditions => ({
    suite: 'sim', modes: ['senseact'], device: 'sim', faults: null, modelFaults: null, gateThreshold: null, temperature: null, policy: 'oracle', modelLabel: 'none', skills: null, planning,
  });

  it('refuses an added --meta-plan or --vote, a dropped or moved --app-memory, naming each option', () => {
    const memory = { ...noPlanningAids, appMemory: '/runs/memory' };
    expect(resumeMismatches(recordedWith(memory), askedWith({ ...memory, metaPlan: true, vote: 3, voteTemperature: 0.7 }))).toEqual([
      '--meta-plan: the run used off, this one on',
      '--vote: the run used 1, this one 3',
      '--vote-temperature: the run used (none), this one 0.7',
    ]);
    expect(resumeMismatches(recordedWith(memory), askedWith(noPlanningAids))).toEqual(['--app-memory: the run used /runs/memory, this one (none)']);
    expect(resumeMismatches(recordedWith(memory), askedWith({ ...memory, appMemory: '/runs/other' }))).toEqual(['--app-memory: the run used /runs/memory, this one /runs/other']);
  });

  it('the same aids resume; results written before aids were recorded read as none (negative control)', () => {
    const aids = { metaPlan: true, vote: 3, voteTemperature: 0.7, appMemory: '/runs/memory' };
    expect(resumeMismatches(recordedWith(aids), askedWith(aids))).toEqual([]);
    const { planning: _planning, ...older } = recordedWith(noPlanningAids);
    expect(benchRunOptionsSchema.parse(older).planning).toEqual(noPlanningAids);
    expect(resumeMismatches(benchRunOptionsSchema.parse(older), askedWith(noPlanningAids))).toEqual([]);
  });
});
