// scripts/droidbot-to-transitions.ts on tests/fixtures/droidbot-output (notes/ SYNTHETIC,
// calendar/ the real DroidBot state of tests/fixtures/autodroid, MIT): the JSONL it writes
// holds the steps `verify-replay <folder>` replays, with their screens as XML, and replays
// to the same verdicts.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, writeTransitions } from '../../scripts/droidbot-to-transitions.js';
import { replayVerification } from '../../src/bench/verify-replay.js';
import { loadReplaySource } from '../../src/tasks/replay/load-replay-source.js';
import { transitionRecordSchema } from '../../src/tasks/replay/transition-record.js';
import { parseHierarchy } from '../../src/ui/parse-hierarchy.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(repoRoot, 'tests/fixtures/droidbot-output');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-droidbot-to-transitions-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function records(out: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(out, 'transitions.jsonl'), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('droidbot-to-transitions', () => {
  it('writes every replayed step once, with its screens as XML, and replays to the same verdicts', async () => {
    const out = path.join(scratch, 'all');
    const source = await loadReplaySource(fixture);
    const summary = await writeTransitions(source, out);
    const steps = source.tasks.flatMap((task) => task.steps);
    const written = await records(out);
    expect(summary).toMatchObject({ records: steps.length, apps: 2, overCap: 0, unconverted: [] });
    expect(written.map((line) => line['source'])).toEqual(steps.map((step) => step.id));
    for (const line of written) expect(transitionRecordSchema.safeParse(line).success).toBe(true);
    const files = await readdir(path.join(out, 'xml'));
    expect(files).toHaveLength(summary.screens);
    for (const file of files) expect(parseHierarchy(await readFile(path.join(out, 'xml', file), 'utf8'), { sourceName: file }).nodes.length).toBeGreaterThan(0);

    const fromFolder = replayVerification(source).perStep;
    const fromJsonl = replayVerification(await loadReplaySource(path.join(out, 'transitions.jsonl'))).perStep;
    const verdicts = (list: typeof fromFolder): string[] => list.map((step) => `${step.category} ${step.unitType ?? ''} ${step.verdict?.outcome ?? ''} ${step.verdict?.tie ?? ''}`);
    expect(verdicts(fromJsonl)).toEqual(verdicts(fromFolder));
    expect(fromJsonl.filter((step) => step.verdict?.outcome === 'pass').length).toBeGreaterThan(2);
  });

  it('names the action as a transitions record does: typed text, the way the finger moved, the key', async () => {
    const written = await records(path.join(scratch, 'all'));
    const actions = written.map((line) => line['action'] as Record<string, unknown>);
    expect(actions.find((action) => action['kind'] === 'set_text')).toMatchObject({ typed_text: 'groceries', typing: 'replace', class: 'android.widget.EditText' });
    expect(actions.find((action) => action['kind'] === 'key')).toMatchObject({ key: 'BACK' });
    // The notes run scrolls its list DOWN (content further down comes into view): the finger moves up.
    expect(actions.find((action) => action['kind'] === 'scroll')).toMatchObject({ finger_moves: 'up' });
    const tap = written.find((line) => (line['action'] as Record<string, unknown>)['text'] === 'Settings');
    expect(tap).toMatchObject({ app_package: 'com.example.notes', source_format: 'droidbot', no_visible_effect: false });
    // DroidBot saved the Settings page when the run first saw it, before this tap: the record says so.
    expect(tap?.['after_capture']).toBe('other_capture_same_state_str');
    expect(written.filter((line) => line['after_capture'] === 'at_event').length).toBeGreaterThan(0);
    expect(tap?.['activity_stack_before']).toBeUndefined();
  });

  it('--per-app keeps the first steps of each app, and --stacks keeps the activity stacks', async () => {
    const out = path.join(scratch, 'cut');
    const summary = await writeTransitions(await loadReplaySource(fixture), out, { perApp: 1, stacks: true });
    const written = await records(out);
    expect(written.map((line) => line['app_package']).sort()).toEqual(['com.example.notes', 'com.simplemobiletools.calendar']);
    expect(summary.overCap).toBeGreaterThan(0);
    expect(written.some((line) => Array.isArray(line['activity_stack_before']))).toBe(true);
  });

  it('refuses a source whose screens are XML already, and says what it converts', async () => {
    const source = await loadReplaySource(path.join(repoRoot, 'tests/fixtures/transitions'));
    await expect(writeTransitions(source, path.join(scratch, 'refused'))).rejects.toThrow(/is a transitions-jsonl source; it converts DroidBot output folders or DroidTask's user_tasks/);
  });

  it('the script prints what it wrote, and exits 2 with its usage or with what it could not read', async () => {
    const script = async (...args: string[]): Promise<{ code: number; out: string; err: string }> => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const usage = await script(fixture);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/usage: npx tsx scripts\/droidbot-to-transitions\.ts <droidbot folder> --out <dir>/);
    const missing = await script(path.join(scratch, 'nowhere'), '--out', path.join(scratch, 'x'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nowhere: no such file or folder');
    const done = await script(fixture, '--out', path.join(scratch, 'cli'), '--per-app', '2');
    expect(done).toMatchObject({ code: 0, err: '' });
    expect(done.out).toMatch(/transitions\.jsonl: 3 records, \d+ screens, 2 apps; \d+ steps over --per-app left out; \d+ recorded events not UI actions or without a screen, 1 unreadable files$/);
    expect(await script(fixture, '--out', path.join(scratch, 'cli'), '--per-app', '0')).toMatchObject({ code: 2 });
  });
});
