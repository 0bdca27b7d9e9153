import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { RecordingLanguageModel, RecordingVisionModel } from '../../../src/model/recording-language-model.js';
import { CassetteRecorder } from '../../../src/model/cassette-recorder.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';

const dir = mkdtempSync(join(tmpdir(), 'senseact-cassette-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeIo(): CliIo & { out: () => string; err: () => string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout: (text) => void stdout.push(text), stderr: (text) => void stderr.push(text), cwd: dir, env: {}, out: () => stdout.join(''), err: () => stderr.join('') };
}

async function recordSample(): Promise<string> {
  const path = join(dir, 'sample.jsonl');
  const recorder = new CassetteRecorder({ path });
  const text = new RecordingLanguageModel(new ScriptedLanguageModel({ model: 'planner-m', replies: ['{"intent": "open Wi-Fi"}', 'pass'] }), recorder);
  const vision = new RecordingVisionModel(new ScriptedVisionModel({ model: 'vlm-m', replies: [{ text: 'region 2', usage: { promptTokens: 900, completionTokens: 3 } }] }), recorder);
  await text.generate({ role: 'planner', messages: [{ role: 'system', content: 'You plan.' }, { role: 'user', content: 'Task: turn Wi-Fi off' }] });
  await text.generate({ role: 'verifier', messages: [{ role: 'user', content: 'Did it change?' }] });
  await vision.generate({ role: 'vision', messages: [{ role: 'user', content: 'Where is the toggle?', images: [{ png: new Uint8Array(100) }] }] });
  return path;
}

describe('senseact cassette', () => {
  it('lists the calls with totals per role and model', async () => {
    await recordSample();
    const io = fakeIo();
    expect(await main(['cassette', 'sample.jsonl'], io)).toBe(0);
    const out = io.out();
    expect(out).toMatch(/^ {3}0 {2}[0-9a-f]{12}#0 {2}planner +planner-m .*"Task: turn Wi-Fi off"$/m);
    expect(out).toMatch(/^ {3}2 .*vision +vlm-m +900\+3 +1 img "Where is the toggle\?"$/m);
    expect(out).toMatch(/3 call\(s\)/);
    expect(out).toMatch(/vision vlm-m: 1 call\(s\), 900\+3 tokens, 1 image\(s\)/);
  });

  it('--hash shows the full request and reply; --json lists entries', async () => {
    await recordSample();
    const listed = fakeIo();
    await main(['cassette', 'sample.jsonl', '--json'], listed);
    const parsed = JSON.parse(listed.out()) as { calls: number; entries: { hash: string; role: string }[] };
    expect(parsed.calls).toBe(3);
    const planner = parsed.entries.find((entry) => entry.role === 'planner');
    const shown = fakeIo();
    expect(await main(['cassette', 'sample.jsonl', '--hash', (planner?.hash ?? '').slice(0, 8)], shown)).toBe(0);
    expect(shown.out()).toContain('--- system\nYou plan.');
    expect(shown.out()).toContain('=== reply (planner-m');
    expect(shown.out()).toContain('{"intent": "open Wi-Fi"}');
    const none = fakeIo();
    expect(await main(['cassette', 'sample.jsonl', '--hash', 'ffffffffffff'], none)).toBe(1);
    expect(none.err()).toMatch(/no call .* has a hash starting with/);
  });

  it('exits 2 on a missing or malformed cassette, naming the line', async () => {
    const missing = fakeIo();
    expect(await main(['cassette', 'nope.jsonl'], missing)).toBe(2);
    expect(missing.err()).toMatch(/does not exist/);
    writeFileSync(join(dir, 'bad.jsonl'), '{"v": 1, "hash": "x"}\n{}\n');
    const bad = fakeIo();
    expect(await main(['cassette', 'bad.jsonl'], bad)).toBe(2);
    expect(bad.err()).toMatch(/line 1/);
  });
});
