// `senseact verify-replay` on the real transitions of tests/fixtures/transitions, and on a
// SYNTHETIC DroidTask folder built around the one real DroidBot state in
// tests/fixtures/autodroid (its "after" state is that state with the tapped day selected).
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tieMeanings } from '../../src/verify/tie-kinds.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(repoRoot, 'tests/fixtures/transitions');
const stateFile = path.join(repoRoot, 'tests/fixtures/autodroid/state_2023-10-20_134316.json');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'senseact-verify-replay-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<CliRun> {
  return runCli(repoRoot, args);
}

interface Counts { total: number; pass: number; fail: number; inconclusive: number; strong: number; weak: number; settled: number }
interface ReportJson {
  steps: number;
  categories: Record<string, number>;
  visibleEffect: { all: Counts; byType: Record<string, Counts> };
  noVisibleEffect: { all: Counts };
  noOp: { all: Counts; byType: Record<string, Counts> };
  wrongEffect: { all: Counts };
  tasks: { total: number; verified: number };
  vision: { screenshotPerStep: number; everyNonPass: number; everyFail: number; gate: number; gatePixelOnly: number };
  perStep: { id: string; task: string; category: string; noVisibleEffect?: boolean; note?: string; unitType?: string; verdict?: { outcome: string; reason: string }; noOp?: { outcome: string }; wrongEffect?: { donor: string; verdict?: { reason: string } }; visit?: string; trail?: { cameFrom?: string; openedFrom?: string } }[];
}

describe('senseact verify-replay on real transitions', () => {
  it('prints the verdict tables, the negative controls, the tasks and the implied vision calls', async () => {
    const { code, out, err } = await run('verify-replay', 'tests/fixtures/transitions');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('61 steps in 18 tasks, 23 apps');
    expect(out).toMatch(/^summary: pass \d+\.\d%, inconclusive \d+\.\d%, strong \d+\.\d% of passes; wrong-effect strong false pass \d+\.\d%/m);
    expect(out).toContain('Per kind of evidence');
    expect(out).toContain('Per app');
    expect(out).toMatch(/false pass: /);
    expect(out).toMatch(/strong false pass by type \(of all its steps\): click \d+\.\d% \(\d+\), commit /);
    expect(out).toContain('What really happened');
    expect(out).toContain('Negative control, no-op');
    expect(out).toContain('Negative control, wrong effect');
    expect(out).toMatch(/vision calls implied .*one screenshot per step 60/);
    // Screens converted to uiautomator XML carry no activity stack: the report says so.
    expect(out).toContain("steps whose screens carry the device's activity stack (before and after; activity-finished and editor-finished need it): 0 of 61");
  });

  it('--json gives every step its verdict and both controls, and the counts add up', async () => {
    const { code, out } = await run('verify-replay', fixture, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as ReportJson;
    expect(report.steps).toBe(61);
    expect(report.perStep).toHaveLength(61);
    const replayed = report.perStep.filter((step) => step.category === 'replayed');
    expect(report.visibleEffect.all.total + report.noVisibleEffect.all.total).toBe(replayed.length);
    const { all } = report.visibleEffect;
    expect(all.pass + all.fail + all.inconclusive).toBe(all.total);
    expect(all.strong + all.weak).toBe(all.pass);
    // Every step with an effect is checked against its no-op: a click that changed nothing passes only as settled.
    expect(report.noOp.all.total).toBe(report.visibleEffect.all.total);
    expect(report.noOp.byType['click']?.pass).toBe(report.noOp.byType['click']?.settled);
    const step = (id: string) => report.perStep.find((candidate) => candidate.id === id);
    expect(step('lc-lc-2024-01-14_004038')).toMatchObject({ unitType: 'select', verdict: { outcome: 'pass', code: 'choice-shown' }, noOp: { outcome: 'fail' } });
    // The Reuters icon judged on the after screen of the Calendar icon (same launcher screen): a weak pass at most.
    expect(step('lc-lc-2023-12-27_174610')).toMatchObject({ verdict: { outcome: 'pass', strength: 'strong' }, wrongEffect: { donor: 'lc-lc-2023-12-27_173454', verdict: { strength: 'weak' } } });
    // The radio already checked is settled: the loop does not tap it.
    expect(step('hrx-task_Calendar_2025-08-14_14-15-55-5')?.category).toBe('settled');
    // Nothing typed, then Enter and Search (the recorder's keys): a key press, not a fill to verify.
    expect(step('lc-lc-2024-01-31_225059')).toMatchObject({ category: 'not-replayed', note: 'key press (not replayed)' });
    // A later step of the same run starts from this step's effect (the typed query stays in the bar): never a wrong effect.
    const donors = report.perStep.filter((one) => one.wrongEffect);
    expect(donors.length).toBeGreaterThan(20);
    for (const one of donors) {
      const sameRun = report.perStep.filter((other) => other.task === one.task).map((other) => other.id);
      expect(sameRun.indexOf(one.wrongEffect?.donor ?? '')).toBeLessThan(sameRun.indexOf(one.id));
    }
    expect(step('zw-demo_Youtube_2026-02-28_22-03-39-2')?.wrongEffect?.donor).not.toMatch(/^zw-demo_Youtube_2026-02-28_22-03-39-/);
    expect(report.vision.gatePixelOnly).toBe(2);
    expect(report.vision.everyFail).toBeLessThanOrEqual(report.vision.everyNonPass);
  });

  it('counts every pass under the kind of evidence that decided it, and every step under its app', async () => {
    const report = JSON.parse((await run('verify-replay', fixture, '--json')).out) as ReportJson & {
      byTie: Record<string, { strength: string; meaning: string; realPasses: number; wrongEffectPasses: number; noOpPasses: number }>;
      byApp: Record<string, { steps: number; pass: number; strong: number }>;
    };
    const kinds = Object.values(report.byTie);
    expect(kinds.reduce((sum, kind) => sum + kind.realPasses, 0)).toBe(report.visibleEffect.all.pass);
    expect(kinds.filter((kind) => kind.strength === 'strong').reduce((sum, kind) => sum + kind.realPasses, 0)).toBe(report.visibleEffect.all.strong);
    expect(kinds.reduce((sum, kind) => sum + kind.wrongEffectPasses, 0)).toBe(report.wrongEffect.all.pass);
    expect(report.byTie['screen-changed|weak']?.realPasses).toBeGreaterThan(0);
    // Each kind says what it means, in the JSON and under the text report's table.
    expect(report.byTie['screen-changed|weak']?.meaning).toBe(tieMeanings['screen-changed']);
    expect(kinds.every((kind) => kind.meaning.length > 0)).toBe(true);
    const text = (await run('verify-replay', fixture)).out;
    const legend = text.slice(text.indexOf('What each kind means'));
    expect(legend).toContain(`  screen-changed: ${tieMeanings['screen-changed']}\n`);
    expect(legend).toContain(`  title-names-label: ${tieMeanings['title-names-label']}\n`);
    expect(Object.values(report.byApp).reduce((sum, app) => sum + app.steps, 0)).toBe(report.steps);
    expect(report.byApp['com.google.android.deskclock']?.steps).toBe(5);
  });

  it('a step that repeats an earlier verified move is strong by the memory, and not with --no-memory', async () => {
    type TieReport = ReportJson & { byTie: Record<string, { realPasses: number; wrongEffectPasses: number }> };
    const [remembered, alone] = [
      JSON.parse((await run('verify-replay', fixture, '--json')).out) as TieReport,
      JSON.parse((await run('verify-replay', fixture, '--json', '--no-memory')).out) as TieReport,
    ];
    // The calendar's "00" (minutes) tapped twice in one recording on the same picker page: the second is known.
    expect(remembered.byTie['known-transition|strong']).toMatchObject({ realPasses: 1, wrongEffectPasses: 0 });
    expect(alone.byTie['known-transition|strong']).toBeUndefined();
    expect(remembered.visibleEffect.all.strong).toBe(alone.visibleEffect.all.strong + 1);
    expect(remembered.visibleEffect.all.pass).toBe(alone.visibleEffect.all.pass);
  });

  it('splits the steps into first visits and repeats, with and without the memory, and prints the split', async () => {
    type VisitFigures = { replayed: number; pass: number; strong: number };
    type VisitReport = ReportJson & { byVisit: { first?: VisitFigures; repeat?: VisitFigures } };
    const [remembered, alone] = [
      JSON.parse((await run('verify-replay', fixture, '--json')).out) as VisitReport,
      JSON.parse((await run('verify-replay', fixture, '--json', '--no-memory')).out) as VisitReport,
    ];
    const { first, repeat } = remembered.byVisit;
    expect((first?.replayed ?? 0) + (repeat?.replayed ?? 0)).toBe(remembered.visibleEffect.all.total);
    expect((first?.strong ?? 0) + (repeat?.strong ?? 0)).toBe(remembered.visibleEffect.all.strong);
    // The calendar's second "00" is a repeat, strong by the memory; without it the same step is a repeat, judged alone.
    expect(repeat?.replayed).toBeGreaterThan(0);
    expect(alone.byVisit.repeat?.replayed).toBe(repeat?.replayed);
    expect(alone.byVisit.repeat?.strong).toBe((repeat?.strong ?? 0) - 1);
    expect(remembered.perStep.filter((step) => step.category === 'replayed').every((step) => step.visit === 'first' || step.visit === 'repeat')).toBe(true);
    expect(remembered.perStep.filter((step) => step.category !== 'replayed').some((step) => step.visit !== undefined)).toBe(false);
    const { out } = await run('verify-replay', fixture);
    expect(out).toMatch(/^By visit /m);
    expect(out).toMatch(new RegExp(`^repeat +${repeat?.replayed} `, 'm'));
  });

  it('--half a and --half b split the apps in two, and --apps keeps the packages its globs name', async () => {
    const steps = async (...options: string[]): Promise<ReportJson> => JSON.parse((await run('verify-replay', fixture, '--json', ...options)).out) as ReportJson;
    const [a, b, all] = [await steps('--half', 'a'), await steps('--half', 'b'), await steps()];
    expect(a.steps + b.steps).toBe(all.steps);
    expect(a.steps).toBeGreaterThan(0);
    expect(b.steps).toBeGreaterThan(0);
    const appsOf = (report: ReportJson): Set<string> => new Set(report.perStep.map((step) => (step as { app?: string }).app ?? ''));
    for (const app of appsOf(a)) expect(appsOf(b).has(app)).toBe(false);
    const clock = await steps('--apps', 'com.google.android.desk*,nothing.else');
    expect(appsOf(clock)).toEqual(new Set(['com.google.android.deskclock']));
    const none = await run('verify-replay', fixture, '--apps', 'no.such.app');
    expect(none.code).toBe(2);
    expect(none.err).toContain('no step of');
    const badHalf = await run('verify-replay', fixture, '--half', 'c');
    expect(badHalf.code).toBe(2);
    expect(badHalf.err).toContain('--half must be a or b');
  });

  it('a tap inside a list is verified as a tap on what was tapped, not as a scroll of the whole list', async () => {
    // Two real steps of Settings: a tap on a row that is no unit of its own (mapped to its RecyclerView), and
    // a tap on "Internet" whose page is titled "Internet" — the wrong effect for the first one.
    const lines = (await readFile(path.join(fixture, 'transitions.jsonl'), 'utf8')).split('\n');
    const pick = (id: string): string => lines.find((line) => line.includes(`"id": "${id}"`)) ?? '';
    const folder = await mkdtemp(path.join(scratch, 'list-tap-'));
    await writeFile(path.join(folder, 'transitions.jsonl'), `${pick('ug-task_system_2024-05-20_19-52-52-3')}\n${pick('ug-task_system_2024-11-12_23-54-19-3')}\n`);
    await symlink(path.join(fixture, 'xml'), path.join(folder, 'xml'));
    const report = JSON.parse((await run('verify-replay', folder, '--json')).out) as ReportJson;
    const row = report.perStep.find((step) => step.id === 'ug-task_system_2024-05-20_19-52-52-3') as (ReportJson['perStep'][number] & { unitLabel?: string; wrongEffect?: { donor: string; verdict: { outcome: string; strength?: string } } }) | undefined;
    expect(row).toMatchObject({ category: 'replayed', unitType: 'click', verdict: { outcome: 'pass' } });
    expect(row?.unitLabel).not.toBe('recycler_view');
    // The list's own texts name "Internet", but the tapped row does not: the other step's page ties nothing to it.
    expect(row?.wrongEffect).toMatchObject({ donor: 'ug-task_system_2024-11-12_23-54-19-3', verdict: { outcome: 'pass', strength: 'weak' } });
  });

  it('verifies a real scroll against the way the finger moved: the rows moved that way pass, the other way fail, no way recorded is left out', async () => {
    const scrolls = path.join(repoRoot, 'tests/fixtures/transitions-scrolls');
    const verdicts = async (folder: string): Promise<Map<string, ReportJson['perStep'][number] & { note?: string }>> =>
      new Map((JSON.parse((await run('verify-replay', folder, '--json')).out) as ReportJson).perStep.map((step) => [step.id, step]));
    const recorded = await verdicts(scrolls);
    // DroidBot's DOWN (finger up) and AppAgent's swipe up (finger up): the rows still in view moved up.
    for (const id of ['lc-lc-2024-01-13_193654', 'lh-task_YouTube_2024-12-06_13-24-35-14']) {
      expect(recorded.get(id), id).toMatchObject({ category: 'replayed', unitType: 'scroll', verdict: { outcome: 'pass', strength: 'strong', tie: 'content-moved' } });
    }
    // A pager whose pages share no item: it changed, but nothing shows which way.
    expect(recorded.get('tm-root-2021-11-23_105838')).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'weak', tie: 'content-replaced' } });
    // The same records with the finger recorded going down, and with no finger recorded.
    const lines = (await readFile(path.join(scrolls, 'transitions.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
    const folder = await mkdtemp(path.join(scratch, 'scrolls-'));
    await writeFile(path.join(folder, 'transitions.jsonl'), `${[
      ...lines.slice(0, 2).map((line) => line.replace('"finger_moves": "up"', '"finger_moves": "down"')),
      lines[2]!.replace('"finger_moves": "left", ', ''),
      // The same record with a finger that is no word: kept, its scroll left out.
      lines[2]!.replace('"id": "tm-root-2021-11-23_105838"', '"id": "odd-finger"').replace('"finger_moves": "left"', '"finger_moves": 5'),
    ].join('\n')}\n`);
    await symlink(path.join(scrolls, 'xml'), path.join(folder, 'xml'));
    const flipped = await verdicts(folder);
    for (const id of ['lc-lc-2024-01-13_193654', 'lh-task_YouTube_2024-12-06_13-24-35-14']) {
      expect(flipped.get(id), id).toMatchObject({ category: 'replayed', verdict: { outcome: 'fail', code: 'wrong-direction' } });
    }
    for (const id of ['tm-root-2021-11-23_105838', 'odd-finger']) {
      expect(flipped.get(id), id).toMatchObject({ category: 'not-replayed', note: 'swipe / scroll without a recorded direction (not replayed)' });
    }
  });

  it('leaves out a switch whose after screen is another capture of its state (after_capture), and judges it when captured at the tap', async () => {
    const lines = (await readFile(path.join(fixture, 'transitions.jsonl'), 'utf8')).split('\n');
    const line = lines.find((candidate) => candidate.includes('"id": "gp-mal-2021-12-14_021609"')) ?? '';
    const record = JSON.parse(line) as { after_capture: string };
    expect(record.after_capture).toBe('at_event');
    const folder = await mkdtemp(path.join(scratch, 'capture-'));
    await writeFile(path.join(folder, 'transitions.jsonl'), `${line}\n${JSON.stringify({ ...record, id: 'other-capture', after_capture: 'other_capture_same_state_str' })}\n`);
    await symlink(path.join(fixture, 'xml'), path.join(folder, 'xml'));
    const report = JSON.parse((await run('verify-replay', folder, '--json')).out) as ReportJson;
    const [atTap, elsewhere] = [report.perStep.find((step) => step.id === 'gp-mal-2021-12-14_021609'), report.perStep.find((step) => step.id === 'other-capture')];
    expect(atTap).toMatchObject({ category: 'replayed', unitType: 'toggle' });
    expect(elsewhere).toMatchObject({ category: 'not-replayed', unitType: 'toggle', note: expect.stringContaining('toggle whose after screen is another capture of its state') });
  });

  it('says which source cannot be loaded, and where a record is malformed', async () => {
    const missing = await run('verify-replay', path.join(scratch, 'nowhere.jsonl'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nowhere\.jsonl: no such file or folder/);
    const lines = (await readFile(path.join(fixture, 'transitions.jsonl'), 'utf8')).split('\n');
    const copy = path.join(scratch, 'broken.jsonl');
    await writeFile(copy, `\n{"id": "x", "before": "xml/a.xml"}\n`);
    const malformed = await run('verify-replay', copy);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain(`${copy}:2: field`);
    // Beside a record that loads, a malformed one (a line cut short by a recorder that stopped) is left out and listed.
    const beside = await mkdtemp(path.join(scratch, 'cut-'));
    await symlink(path.join(fixture, 'xml'), path.join(beside, 'xml'));
    await writeFile(path.join(beside, 'transitions.jsonl'), `${lines[0]}\n${lines[1]!.slice(0, 50)}\n`);
    const cut = await run('verify-replay', beside);
    expect(cut.code).toBe(0);
    expect(cut.out).toMatch(/skipped while loading: 1\n {2}transitions\.jsonl:2: line 2: not valid JSON/);
    expect(cut.out).toMatch(/1 steps in 1 tasks/);
    // A record whose screen is not beside the file names the file, the line and the screen.
    await writeFile(copy, `${lines[0]}\n`);
    const noScreen = await run('verify-replay', copy);
    expect(noScreen.code).toBe(2);
    expect(noScreen.err).toMatch(/broken\.jsonl:1: screen xml\/\w+\.xml cannot be read/);
  });
});

describe('senseact verify-replay --explain', () => {
  it('explains the matched steps with the verdicts the report gives them: action, unit, change, real, no-op and wrong effect', async () => {
    const report = JSON.parse((await run('verify-replay', fixture, '--json')).out) as ReportJson;
    const step = report.perStep.find((candidate) => candidate.category === 'replayed' && candidate.wrongEffect !== undefined && candidate.verdict?.outcome === 'pass');
    if (!step?.verdict || !step.wrongEffect) throw new Error('the fixture has no replayed step with a wrong-effect control');
    const { code, out, err } = await run('verify-replay', fixture, '--explain', step.id);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`step ${step.id}`);
    expect(out).toContain(`unit: ${step.unitType} "`);
    expect(out).toMatch(/\n {2}action: tap on \w+/);
    expect(out).toMatch(/\n {2}seen: (new-page|partial-change|no-change), /);
    // The verdicts are those of the report, word for word, each under its line.
    const verdictAt = lines.findIndex((line) => line.startsWith('  verdict: pass'));
    expect(lines[verdictAt + 1]).toBe(`    ${step.verdict.reason}`);
    const wrongAt = lines.findIndex((line) => line.startsWith(`  wrong-effect control (the after screen of ${step.wrongEffect!.donor} (`));
    expect(wrongAt).toBeGreaterThan(verdictAt);
    expect(lines[wrongAt + 1]).toBe(`    ${step.wrongEffect.verdict?.reason}`);
    expect(out).toContain('  no-op control (after = before): ');
    // Only the matched step: the report's tables are not printed.
    expect(out.match(/^step /gm)).toHaveLength(1);
    expect(out).not.toContain('Negative control');
  });

  it('names the kind of evidence with its meaning, and says why a step was not replayed', async () => {
    const report = JSON.parse((await run('verify-replay', fixture, '--json')).out) as ReportJson & { perStep: { tie?: string }[] };
    const tied = report.perStep.find((candidate) => (candidate.verdict as { tie?: string } | undefined)?.tie !== undefined);
    const tie = (tied?.verdict as { tie?: keyof typeof tieMeanings } | undefined)?.tie;
    if (!tied || tie === undefined) throw new Error('no verdict with a kind of evidence in the fixture');
    const left = report.perStep.find((candidate) => candidate.category === 'not-replayed');
    if (!left?.note) throw new Error('no step left out in the fixture');
    const { code, out } = await run('verify-replay', fixture, '--explain', `${tied.id},${left.id}`);
    expect(code).toBe(0);
    expect(out).toContain(`— ${tie} (${tieMeanings[tie]})`);
    expect(out).toContain(`step ${left.id}\n`);
    expect(out).toContain(`  not-replayed: ${left.note}`);
  });

  it('names the pages of the trail a step was judged with: where the run came from, where its dialog was opened from', async () => {
    const report = JSON.parse((await run('verify-replay', fixture, '--json')).out) as ReportJson;
    const trailed = report.perStep.filter((candidate) => candidate.trail?.cameFrom !== undefined);
    const first = report.perStep.find((candidate) => candidate.category === 'replayed' && candidate.trail === undefined);
    if (trailed.length === 0 || !first) throw new Error('the fixture needs steps with and without a page under them');
    // Each page named is a screen of the source.
    for (const step of trailed) expect(step.trail?.cameFrom).toMatch(/^xml\/\w+\.xml$|^launched from/);
    const { out } = await run('verify-replay', fixture, '--explain', `${trailed[0]!.id},${first.id}`);
    expect(out).toContain(`  trail: came from ${trailed[0]!.trail!.cameFrom}`);
    // How the screen after differs from that page: what went-back and control-went-back compare.
    expect(out).toMatch(new RegExp(`\\n  after, against ${trailed[0]!.trail!.cameFrom!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (no-change|partial-change|new-page)`));
    expect(out.split('\n\n').find((block) => block.startsWith(`step ${first.id}\n`))).not.toContain('  trail:');
  });

  it('a glob matches the whole id; a pattern that matches nothing is named, and exits 2 when none matched', async () => {
    const some = await run('verify-replay', fixture, '--explain', 'lc-lc-2023-12-27_17345*,no-such-step');
    expect(some.code).toBe(0);
    expect(some.out).toMatch(/^step lc-lc-2023-12-27_17345\d\n/m);
    expect(some.err).toContain('no step id matches "no-such-step"; ids look like "lc-');
    const none = await run('verify-replay', fixture, '--explain', 'lc-lc-2023');
    expect(none.code).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toContain('A glob matches the whole id: put * for any part');
    const both = await run('verify-replay', fixture, '--explain', 'lc-*', '--json');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--explain prints text; leave out --json');
  });

  it('--false-passes explains every step a negative control passed on, counted as the JSON counts them', async () => {
    const report = JSON.parse((await run('verify-replay', fixture, '--json')).out) as ReportJson;
    type Brief = { outcome: string; strength?: string; code?: string } | undefined;
    const passed = (verdict: Brief): boolean => verdict?.outcome === 'pass' && verdict.code !== 'already-selected';
    const replayed = report.perStep.filter((step) => step.category === 'replayed');
    const noEffect = replayed.filter((step) => step.noVisibleEffect && passed(step.verdict as Brief));
    const noOp = replayed.filter((step) => !step.noVisibleEffect && passed(step.noOp as Brief));
    const wrong = replayed.filter((step) => !step.noVisibleEffect && !passed(step.noOp as Brief) && (step.wrongEffect?.verdict as Brief)?.strength === 'strong' && (step.wrongEffect?.verdict as Brief)?.outcome === 'pass');
    const { code, out } = await run('verify-replay', fixture, '--false-passes');
    expect(code).toBe(0);
    const total = noEffect.length + noOp.length + wrong.length;
    expect(out.split('\n')[0]).toBe(`false passes: ${total} (wrong-effect control strong ${wrong.length}, no-op control ${noOp.length}, recorded as changing nothing ${noEffect.length})`);
    const explained = [...out.matchAll(/^step (\S+) \(false pass: /gm)].map((match) => match[1]);
    expect(explained.sort()).toEqual([...noEffect, ...noOp, ...wrong].map((step) => step.id).sort());
    // A strong wrong-effect pass shows how the borrowed screen differs from the screen before.
    expect(out).toMatch(/\n {4}its screen, against the screen before: (no-change|partial-change|new-page)/);
    // The fixture's wrong-effect control passes strong somewhere (the per-kind table counts it): the list is not empty by construction.
    expect(wrong.length).toBeGreaterThan(0);
    // With ids too, a step is explained once, by whichever selects it.
    const both = await run('verify-replay', fixture, '--false-passes', '--explain', `${wrong[0]!.id}`);
    expect(both.out.match(new RegExp(`^step ${wrong[0]!.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'gm'))).toHaveLength(1);
  });

  it('--html writes the explained steps as a page with their screens drawn beside it, and needs a selection', async () => {
    const dir = path.join(scratch, 'explained');
    const text = await run('verify-replay', fixture, '--false-passes');
    const { code, out, err } = await run('verify-replay', fixture, '--false-passes', '--html', dir);
    expect(code).toBe(0);
    // The text is the same with or without the page.
    expect(out).toBe(text.out);
    expect(err).toContain(`verify-replay: wrote ${path.join(dir, 'index.html')} (`);
    const page = await readFile(path.join(dir, 'index.html'), 'utf8');
    const ids = [...out.matchAll(/^step (\S+) \(false pass: /gm)].map((match) => match[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(page).toContain(`step ${id} (false pass: `);
    // Screens are drawn once each in sprite files beside the page; the page runs nothing and loads only them.
    const sprite = await readFile(path.join(dir, 'screens-0.svg'), 'utf8');
    expect(sprite).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(page).toMatch(/<img src="screens-0\.svg#s\d+"/);
    expect(page).toMatch(/script-src (&#39;|')none(&#39;|')/);
    expect(page).not.toContain('<script');
    expect(page).toContain('wrong effect: the borrowed screen');
    const alone = await run('verify-replay', fixture, '--html', dir);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--html writes the explained steps; add --explain <ids> or --false-passes');
  });

  it('names a step the loader skipped, with why', async () => {
    const lines = (await readFile(path.join(fixture, 'transitions.jsonl'), 'utf8')).split('\n');
    const folder = await mkdtemp(path.join(scratch, 'explain-'));
    await symlink(path.join(fixture, 'xml'), path.join(folder, 'xml'));
    const swipe = { ...(JSON.parse(lines[0]!) as Record<string, unknown>), id: 'a-swipe', action: { kind: 'swipe' } };
    await writeFile(path.join(folder, 'transitions.jsonl'), `${lines[0]}\n${JSON.stringify(swipe)}\n`);
    const { code, out } = await run('verify-replay', folder, '--explain', 'a-swipe');
    expect(code).toBe(0);
    expect(out).toMatch(/^step a-swipe\n {2}skipped while loading: line 2: field action\.kind/);
  });
});

describe('senseact verify-replay on DroidTask folders (synthetic task around a real DroidBot state)', () => {
  it('replays a tap on the date picker: the recorded next state is its after screen', async () => {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as { state_str: string; tag: string; views: { text: string | null; visible: boolean; selected: boolean; bounds: number[][] }[] };
    const day = state.views.find((view) => view.text === '25' && view.visible);
    if (!day) throw new Error('no visible day 25 in the DroidBot state');
    const appDir = path.join(scratch, 'user_tasks', 'calendar');
    await mkdir(path.join(appDir, 'states'), { recursive: true });
    await mkdir(path.join(appDir, 'events'), { recursive: true });
    await writeFile(path.join(appDir, 'states', 'state_1.json'), JSON.stringify(state));
    const chosen = { ...state, tag: '2', state_str: 'after-25', views: state.views.map((view) => (view === day ? { ...view, selected: true } : view)) };
    await writeFile(path.join(appDir, 'states', 'state_2.json'), JSON.stringify(chosen));
    await writeFile(path.join(appDir, 'events', 'event_1.json'), JSON.stringify({ tag: '1', event: { event_type: 'touch', view: { ...day, resource_id: null, class: 'android.view.View' } }, start_state: state.state_str, stop_state: 'after-25' }));
    await writeFile(path.join(appDir, 'task1.yaml'), [
      'task_name: pick the 25th',
      'records:',
      `- {Choice: 0, Input: 'null', State: '<button id=0>25</button>', state_str: ${state.state_str}, new_state_str: after-25}`,
      "- {Choice: -1, Input: 'null', State: '', state_str: after-25}",
      '',
    ].join('\n'));
    const { code, out, err } = await run('verify-replay', path.join(scratch, 'user_tasks'), '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as ReportJson;
    expect(report.tasks.total).toBe(1);
    expect(report.perStep).toHaveLength(1);
    expect(report.perStep[0]).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass' }, noOp: { outcome: 'fail' } });
    expect(report.tasks.verified).toBe(1);
  });
});
