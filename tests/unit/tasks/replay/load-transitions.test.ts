import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTransitions } from '../../../../src/tasks/replay/load-transitions.js';
import { ReplayLoadError } from '../../../../src/tasks/replay/replay-load-error.js';
import { transitionsFile } from '../../verify/transitions.js';

// A transitions file whose screens were saved by a Windows redirect (UTF-16 with a
// byte-order mark) or with a UTF-8 mark loads like the plain UTF-8 original.
describe('loadTransitions reads screens as bytes', () => {
  let folder: string;
  let record: { before: string; after: string };
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'senseact-transitions-bom-'));
    const line = (await readFile(transitionsFile, 'utf8')).split('\n')[0]!;
    record = JSON.parse(line) as { before: string; after: string };
    await mkdir(path.join(folder, 'xml'));
    await writeFile(path.join(folder, 'transitions.jsonl'), `${line}\n`);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function writeScreens(encode: (text: string) => Buffer): Promise<void> {
    for (const file of [record.before, record.after]) {
      const text = await readFile(path.join(path.dirname(transitionsFile), file), 'utf8');
      await writeFile(path.join(folder, file), encode(text));
    }
  }

  it('UTF-16LE and UTF-8 with a byte-order mark give the same trees as the original', async () => {
    const original = (await loadTransitions(transitionsFile)).tasks[0]!.steps[0]!;
    for (const encode of [
      (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
    ]) {
      await writeScreens(encode);
      const step = (await loadTransitions(path.join(folder, 'transitions.jsonl'))).tasks[0]!.steps[0]!;
      expect(step.before.nodes).toEqual(original.before.nodes);
      expect(step.after.nodes).toEqual(original.after.nodes);
    }
  });

  it('carries a recorded activity stack (top first) into the trees; a record without one gives none', async () => {
    await writeScreens((text) => Buffer.from(text, 'utf8'));
    const line = (await readFile(transitionsFile, 'utf8')).split('\n')[0]!;
    const stacked = { ...(JSON.parse(line) as object), activity_stack_before: ['com.app/.Second', 'com.app/.Main'], activity_stack_after: ['com.app/.Main'] };
    const file = path.join(folder, 'stacked.jsonl');
    await writeFile(file, `${JSON.stringify(stacked)}\n${line}\n`);
    const [first, second] = (await loadTransitions(file)).tasks.flatMap((task) => task.steps);
    expect([first!.before.activityStack, first!.after.activityStack]).toEqual([['com.app/.Second', 'com.app/.Main'], ['com.app/.Main']]);
    expect([second!.before.activityStack, second!.after.activityStack]).toEqual([[], []]);
  });

  it('negative control: a damaged screen is still a ReplayLoadError naming file and line', async () => {
    await writeScreens((text) => Buffer.from(text.slice(0, 40), 'utf8'));
    await expect(loadTransitions(path.join(folder, 'transitions.jsonl'))).rejects.toSatisfy((error) => error instanceof ReplayLoadError && /transitions\.jsonl.*1/.test((error as Error).message));
  });
});

// One damaged capture among many records leaves out the records that use it, listed with
// the screen and the line, and the rest loads; with no record left, the load fails.
describe('loadTransitions with an unreadable screen', () => {
  let folder: string;
  let lines: string[];
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'senseact-transitions-damaged-'));
    lines = (await readFile(transitionsFile, 'utf8')).split('\n').filter((line) => line.trim() !== '').slice(0, 6);
    await mkdir(path.join(folder, 'xml'));
    for (const line of lines) {
      const record = JSON.parse(line) as { before: string; after: string };
      for (const file of [record.before, record.after]) await writeFile(path.join(folder, file), await readFile(path.join(path.dirname(transitionsFile), file)));
    }
    await writeFile(path.join(folder, 'transitions.jsonl'), `${lines.join('\n')}\n`);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('leaves out the records whose screen does not parse or is missing, lists each screen once, and loads the others', async () => {
    const whole = await loadTransitions(path.join(folder, 'transitions.jsonl'));
    const steps = whole.tasks.flatMap((task) => task.steps);
    expect(steps).toHaveLength(lines.length);
    expect(whole.unreadable).toEqual([]);
    // Damage the after screen of the third record (a truncated dump) and remove the before screen of the fifth.
    const third = JSON.parse(lines[2]!) as { id: string; after: string };
    const fifth = JSON.parse(lines[4]!) as { id: string; before: string };
    const users = lines.filter((line) => line.includes(third.after) || line.includes(fifth.before)).map((line) => (JSON.parse(line) as { id: string }).id);
    const truncated = (await readFile(path.join(folder, third.after), 'utf8')).slice(0, 60);
    await writeFile(path.join(folder, third.after), truncated);
    await rm(path.join(folder, fifth.before));
    const damaged = await loadTransitions(path.join(folder, 'transitions.jsonl'));
    const kept = damaged.tasks.flatMap((task) => task.steps).map((step) => step.id);
    expect(kept).toEqual(steps.map((step) => step.id).filter((id) => !users.includes(id)));
    expect(damaged.skipped.map((entry) => entry.id)).toEqual(users);
    expect(damaged.skipped[0]!.reason).toMatch(/^line \d+: screen xml\/\w+\.xml (does not parse|cannot be read)/);
    expect(damaged.unreadable.map((entry) => entry.problem.replace(/ \(.*/s, '')).sort()).toEqual([`screen ${third.after} does not parse`, `screen ${fifth.before} cannot be read`].sort());
    expect(damaged.unreadable.every((entry) => /transitions\.jsonl:\d+$/.test(entry.file))).toBe(true);
    // The runs that lost records count them: they cannot be "verified" whole.
    const recorded = damaged.tasks.reduce((sum, task) => sum + (task.recordedSteps ?? task.steps.length), 0);
    expect(recorded).toBe(lines.length);
  });

  it('lists a run that lost every record, with no step and its records counted', async () => {
    const [kept, lost] = [JSON.parse(lines[0]!) as Record<string, unknown>, JSON.parse(lines[2]!) as Record<string, unknown>];
    await writeFile(path.join(folder, lost['after'] as string), '<hierarchy><node');
    const runOf = (name: string): string => `owner/${name}@0:${name}/events/event_1.json`;
    await writeFile(path.join(folder, 'two.jsonl'), `${JSON.stringify({ ...kept, source: runOf('kept') })}\n${JSON.stringify({ ...lost, source: runOf('lost') })}\n`);
    const source = await loadTransitions(path.join(folder, 'two.jsonl'));
    const byId = new Map(source.tasks.map((task) => [task.id, task]));
    expect(byId.get('owner/kept:kept')?.steps).toHaveLength(1);
    expect(byId.get('owner/lost:lost')).toMatchObject({ steps: [], recordedSteps: 1, app: lost['app_package'] });
  });

  it('leaves out a malformed record (not JSON, cut short, an unknown action kind), lists it by id or line, and loads the others', async () => {
    // Records whose screens the tests above left whole.
    const [first, second, third] = [lines[0]!, lines[1]!, lines[5]!].map((line) => JSON.parse(line) as Record<string, unknown>);
    const unknownKind = { ...second, id: 'pinched', action: { ...(second!['action'] as object), kind: 'pinch' } };
    const text = [JSON.stringify(first), 'not json at all', JSON.stringify(unknownKind), JSON.stringify(third), lines[3]!.slice(0, 40)].join('\n');
    await writeFile(path.join(folder, 'mixed.jsonl'), `${text}\n`);
    const source = await loadTransitions(path.join(folder, 'mixed.jsonl'));
    expect(source.tasks.flatMap((task) => task.steps).map((step) => step.id)).toEqual([first!['id'], third!['id']]);
    expect(source.skipped).toEqual([
      { id: 'mixed.jsonl:2', reason: expect.stringMatching(/^line 2: not valid JSON/) },
      { id: 'pinched', reason: expect.stringMatching(/^line 3: field action\.kind: /) },
      { id: 'mixed.jsonl:5', reason: expect.stringMatching(/^line 5: not valid JSON/) },
    ]);
    // The malformed record that names its run is counted there (that run cannot be "verified" whole); lines with no id are not.
    expect(source.tasks.reduce((sum, task) => sum + (task.recordedSteps ?? task.steps.length), 0)).toBe(3);
  });

  it('names a skipped record\'s screen whole, even with a bracket in its name', async () => {
    const [kept, lost] = [JSON.parse(lines[0]!) as Record<string, unknown>, JSON.parse(lines[1]!) as Record<string, unknown>];
    await writeFile(path.join(folder, 'bracket.jsonl'), `${JSON.stringify(kept)}\n${JSON.stringify({ ...lost, after: 'xml/shot (1).xml' })}\n`);
    const source = await loadTransitions(path.join(folder, 'bracket.jsonl'));
    expect(source.skipped).toEqual([{ id: lost['id'], reason: 'line 2: screen xml/shot (1).xml cannot be read (see the unreadable files)' }]);
    expect(source.unreadable[0]!.problem).toMatch(/^screen xml\/shot \(1\)\.xml cannot be read \(ENOENT/);
  });

  it('negative control: a file with no valid record fails naming its first malformed line', async () => {
    await writeFile(path.join(folder, 'junk.jsonl'), 'a,b,c\n1,2,3\n');
    await expect(loadTransitions(path.join(folder, 'junk.jsonl'))).rejects.toSatisfy((error) => error instanceof ReplayLoadError && /junk\.jsonl:1: not valid JSON .*; no record could be loaded \(2 malformed record\(s\) in all\)/s.test((error as Error).message));
  });

  it('negative control: when no record loads, the load fails naming the first unreadable screen and its line', async () => {
    const only = JSON.parse(lines[2]!) as { after: string };
    await writeFile(path.join(folder, 'one.jsonl'), `${lines[2]}\n`);
    await writeFile(path.join(folder, only.after), '<hierarchy><node');
    await expect(loadTransitions(path.join(folder, 'one.jsonl'))).rejects.toSatisfy((error) => error instanceof ReplayLoadError && /one\.jsonl:1: screen xml\/\w+\.xml does not parse .*; no record could be loaded/s.test((error as Error).message));
  });
});

// Some DroidBot versions type through an IME broadcast whose quotes reach the field: a
// DroidBot record's typed word may be verified in that form too; other recorders' may not.
describe('loadTransitions gives DroidBot set_text records the form DroidBot may type', () => {
  it('a word typed by DroidBot may arrive in quotes; a text with a space, or one typed by AppAgent or Navi, has no such form', async () => {
    const source = await loadTransitions(transitionsFile);
    const typed = new Map(source.tasks.flatMap((task) => task.steps).flatMap((step) => (step.action.kind === 'set-text' ? [[step.id, step.action] as const] : [])));
    expect(typed.get('lc-lc-2024-01-24_171644')).toMatchObject({ text: 'election', typedAlso: '"election"' });
    for (const id of ['lc-lc-2024-01-14_154852', 'lc-lc-2024-01-31_225059', 'zw-demo_Youtube_2026-02-28_22-03-39-2', 'hrx-task_Calendar_2025-08-14_14-15-55-3', 'navi-com_android_chrome-task_driven_2025-05-16_12-03-06-6']) {
      expect(typed.get(id), id).toBeDefined();
      expect(typed.get(id)?.typedAlso, id).toBeUndefined();
    }
  });
});
