// The certifier's summary of an app map is kept beside the map only when it checks out:
// short, within budget, and naming only what the map holds; a failed call loses nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summariseAppMemory } from '../../../src/agent/planning/summarise-app-memory.js';
import { AppMemory, type AppTrailStep } from '../../../src/memory/app-memory.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';

const app = 'com.android.settings';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'senseact-summary-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function step(from: string, to: string, unit: string, offers: string[]): AppTrailStep {
  return { packageName: app, from, to, intent: `Open ${unit}`, unit, type: 'click', verified: true, offers };
}

/** A memory taught one verified run through three pages of Settings. */
async function taught(): Promise<AppMemory> {
  const memory = await AppMemory.open(dir, { countTokens: estimateTokens });
  await memory.learn({
    taskId: 'settings-dark-theme',
    app,
    instruction: 'Turn on the dark theme',
    success: true,
    trail: [
      step('Settings', 'Display', 'Display', ['Brightness level', 'Dark theme', 'Screen timeout', 'Font size']),
      step('Display', 'Dark theme', 'Dark theme', ['Use Dark theme', 'Schedule']),
    ],
  });
  return memory;
}

function certifier(reply: string | (() => never)): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ model: 'scripted-certifier', replies: () => (typeof reply === 'string' ? reply : reply()) });
}

const summary = 'Display settings live under "Display" on "Settings"; "Dark theme" is on "Display".';

describe('summariseAppMemory', () => {
  it('keeps a short summary that names only what the map holds, and the hints give it instead of the routes', async () => {
    const memory = await taught();
    const model = certifier(summary);
    const outcome = await summariseAppMemory({ memory, packageName: app, certifier: model, countTokens: estimateTokens, minMapTokens: 0 });
    expect(outcome).toMatchObject({ kept: true, model: 'scripted-certifier' });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]?.request.role).toBe('certifier');
    expect(model.calls[0]?.request.messages.at(-1)?.content).toContain('--tap "Display"--> Display');
    expect(memory.get(app)?.summary).toMatchObject({ text: summary, model: 'scripted-certifier' });
    const hints = memory.hints({ packageName: app, scope: 'Settings', instruction: 'Make the screen dark' }, 400);
    expect(hints?.text).toContain(`App map (summarised): ${summary}`);
    // What the map learns next is no longer what was summarised.
    await memory.learn({ taskId: 't2', app, instruction: 'Open Display', success: false, trail: [step('Settings', 'Display', 'Display', [])] });
    expect(memory.get(app)?.summary).toBeUndefined();
  });

  it('rejects a summary that names a control the map does not hold, one over budget, one as long as the map, and an empty one', async () => {
    const memory = await taught();
    const invented = await summariseAppMemory({ memory, packageName: app, certifier: certifier('Tap "Bluetooth" on "Settings".'), countTokens: estimateTokens, minMapTokens: 0 });
    expect(invented).toMatchObject({ kept: false, called: true, reason: expect.stringContaining('"Bluetooth"') });
    const long = `${summary} ${'More words about nothing. '.repeat(60)}`;
    expect(await summariseAppMemory({ memory, packageName: app, certifier: certifier(long), countTokens: estimateTokens, minMapTokens: 0 })).toMatchObject({ kept: false, reason: expect.stringContaining('over the budget') });
    expect(await summariseAppMemory({ memory, packageName: app, certifier: certifier(summary), countTokens: estimateTokens, minMapTokens: 0, budgetTokens: 10_000, })).toMatchObject({ kept: true });
    const map = await summariseAppMemory({ memory, packageName: app, certifier: certifier(`${summary} ${'Again "Display". '.repeat(80)}`), countTokens: estimateTokens, minMapTokens: 0, budgetTokens: 10_000 });
    expect(map).toMatchObject({ kept: false, reason: expect.stringContaining('not shorter than the map') });
    expect(await summariseAppMemory({ memory, packageName: app, certifier: certifier('  '), countTokens: estimateTokens, minMapTokens: 0 })).toMatchObject({ kept: false, reason: expect.stringContaining('nothing') });
    // A rejected summary leaves the one kept before.
    expect(memory.get(app)?.summary?.text).toBe(summary);
  });

  it('reports a failed call instead of throwing, and spends no call on a small map or an unknown app', async () => {
    const memory = await taught();
    const failing = certifier(() => {
      throw new Error('endpoint down');
    });
    expect(await summariseAppMemory({ memory, packageName: app, certifier: failing, countTokens: estimateTokens, minMapTokens: 0 })).toMatchObject({ kept: false, called: true, reason: expect.stringContaining('endpoint down') });
    const idle = certifier(summary);
    expect(await summariseAppMemory({ memory, packageName: app, certifier: idle, countTokens: estimateTokens, minMapTokens: 100_000 })).toMatchObject({ kept: false, called: false, reason: expect.stringContaining('given as it is') });
    expect(await summariseAppMemory({ memory, packageName: 'com.example.none', certifier: idle, countTokens: estimateTokens })).toMatchObject({ kept: false, called: false });
    expect(idle.calls).toHaveLength(0);
    expect(memory.get(app)?.summary).toBeUndefined();
  });
});
