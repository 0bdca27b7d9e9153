// The per-app abstraction memory: learned from verified intents only, notes only from
// solved tasks, hints by app and instruction in a token budget, bad files named.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppMemory, renderAppMemory, taskFamily, type AppTrailStep } from '../../../src/memory/app-memory.js';
import { AppMemoryError } from '../../../src/memory/app-memory-error.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';

const settings = 'com.android.settings';
const home = 'Settings "Settings"';
const display = 'SubSettings "Display"';
const network = 'SubSettings "Network & internet"';

function step(from: string, to: string, unit: string, options: Partial<AppTrailStep> = {}): AppTrailStep {
  return { packageName: settings, from, to, intent: `Open ${unit}`, unit, type: 'click', verified: true, offers: to === display ? ['Navigate up', 'Brightness level', 'Dark theme'] : ['Navigate up', 'Airplane mode', 'Internet'], ...options };
}

const darkTheme = [step(home, display, 'Display'), step(display, display, 'Dark theme', { type: 'toggle', intent: 'Switch dark theme on' })];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'senseact-app-memory-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = () => AppMemory.open(dir, { countTokens: estimateTokens });

describe('AppMemory.learn', () => {
  it('maps verified moves and keeps the path of a solved task as its family note, on disk', async () => {
    const memory = await open();
    expect(await memory.learn({ taskId: 'settings-dark-theme', app: settings, instruction: 'Turn my phone to Dark theme', success: true, trail: darkTheme })).toEqual([settings]);
    const file = (await open()).get(settings);
    expect(file?.links).toEqual([{ from: home, to: display, unit: 'Display', type: 'click', count: 1 }]);
    expect(file?.pages.find((page) => page.scope === display)?.offers).toContain('Dark theme');
    expect(file?.notes).toEqual([{ family: taskFamily('Turn my phone to Dark theme'), instruction: 'Turn my phone to Dark theme', task: 'settings-dark-theme', path: [{ scope: home, intent: 'Open Display', unit: 'Display', type: 'click' }, { scope: display, intent: 'Switch dark theme on', unit: 'Dark theme', type: 'toggle' }], runs: 1 }]);
    expect(renderAppMemory(file!)).toContain(`${home} --tap "Display"--> ${display}  [1×]`);
  });

  it('learns nothing from an intent that was not verified, and no note from a task that failed its check', async () => {
    const memory = await open();
    await memory.learn({ taskId: 't', app: settings, instruction: 'Turn on airplane mode', success: true, trail: [step(home, network, 'Network & internet', { verified: false })] });
    expect(memory.get(settings)).toBeUndefined();
    await memory.learn({ taskId: 't', app: settings, instruction: 'Turn on airplane mode', success: false, trail: [step(home, network, 'Network & internet')] });
    expect(memory.get(settings)?.links).toHaveLength(1);
    expect(memory.get(settings)?.notes).toEqual([]);
  });

  it('keeps a page one page when its list scrolls and its top text (its name without a toolbar) changes', async () => {
    const memory = await open();
    const scrolled = 'Settings "Network & internet"';
    const trail = [step(home, scrolled, 'Settings list', { type: 'scroll', intent: 'Scroll to Display' }), step(scrolled, display, 'Display'), step(display, display, 'Dark theme', { type: 'toggle' })];
    await memory.learn({ taskId: 'scrolled', app: settings, instruction: 'Turn my phone to Dark theme', success: true, trail });
    const file = memory.get(settings);
    expect(file?.pages.map((page) => page.scope)).toEqual([home, display]);
    expect(file?.links).toEqual([{ from: home, to: display, unit: 'Display', type: 'click', count: 1 }]);
    expect(file?.notes[0]?.path.map((entry) => entry.scope)).toEqual([home, home, display]);
    // A click that leads to a page of that name is a real move, not an alias.
    await memory.learn({ taskId: 'clicked', app: settings, instruction: 'Open network settings', success: false, trail: [step(home, scrolled, 'Network & internet')] });
    expect(memory.get(settings)?.pages.map((page) => page.scope)).toEqual([home, display, scrolled]);
  });

  it('keeps the shortest verified path of a family and counts its solved runs', async () => {
    const memory = await open();
    const detour = [step(home, network, 'Network & internet'), step(network, home, 'Navigate up'), ...darkTheme];
    await memory.learn({ taskId: 'a', app: settings, instruction: 'Turn my phone to Dark theme', success: true, trail: detour });
    await memory.learn({ taskId: 'b', app: settings, instruction: 'Turn my phone to Dark theme', success: true, trail: darkTheme });
    const note = memory.get(settings)?.notes[0];
    expect(note?.runs).toBe(2);
    expect(note?.path.map((entry) => entry.unit)).toEqual(['Display', 'Dark theme']);
  });
});

describe('AppMemory.hints', () => {
  it('gives the note of a similar task, the links that leave this page and the route to a page that offers what the task names', async () => {
    const memory = await open();
    await memory.learn({ taskId: 'settings-dark-theme', app: settings, instruction: 'Turn my phone to Dark theme', success: true, trail: darkTheme });
    await memory.learn({ taskId: 'airplane', app: settings, instruction: 'Turn on airplane mode', success: false, trail: [step(home, network, 'Network & internet')] });
    const hints = memory.hints({ packageName: settings, scope: home, instruction: 'Switch dark theme on please' }, 400);
    expect(hints?.text).toContain('A similar task ("Turn my phone to Dark theme") was done by: 1) tap "Display" on Settings "Settings" 2) toggle "Dark theme" on SubSettings "Display"');
    expect(hints?.text).toContain('From this page: tap "Display" → SubSettings "Display"; tap "Network & internet" → SubSettings "Network & internet"');
    expect(hints?.tokens).toBe(estimateTokens(hints!.text));
    // Negative: an unrelated task gets no note, only the map; the airplane route is there because the page offers it.
    const other = memory.hints({ packageName: settings, scope: home, instruction: 'Turn on airplane mode' }, 400);
    expect(other?.text).not.toContain('A similar task');
    expect(other?.text).toContain('To reach SubSettings "Network & internet" (offers "Airplane mode"): tap "Network & internet"');
    // Another app, or a budget too small for one line: nothing.
    expect(memory.hints({ packageName: 'com.example.other', scope: home, instruction: 'Dark theme' }, 400)).toBeUndefined();
    expect(memory.hints({ packageName: settings, scope: home, instruction: 'Switch dark theme on' }, 20)).toBeUndefined();
    const tight = memory.hints({ packageName: settings, scope: home, instruction: 'Switch dark theme on' }, 75);
    expect(tight?.lines).toBe(1);
    expect(tight!.tokens).toBeLessThanOrEqual(75);
  });
});

describe('AppMemory.open', () => {
  it('names a file that is not an app memory and leaves it as it is', async () => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, '{"version": 1, "pages": []}');
    const error = await open().catch((caught: unknown) => caught);
    expect(AppMemoryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not an app memory file .*Move it out of`));
    expect(await readFile(file, 'utf8')).toBe('{"version": 1, "pages": []}');
  });
});
