// A bench replaying a cassette says which recorded calls it did not use: with the prompts
// unchanged but a step budget of 1 instead of 10, the runs stop early and the recording's
// later calls go unused: a warning, and under SENSEACT_CASSETTE=replay-strict: exit 4.
// Recorded over the loopback mock server playing the label-matching model. Negative
// control: replaying the same suite uses every recorded call, with no warning.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main } from '../../../src/cli/main.js';
import { readCassette } from '../../../src/model/cassette.js';
import { labelMatchAnswer } from '../../../src/model/mock-label-model.js';
import { startMockOpenAiServer, type MockOpenAiServer } from '../../../src/model/mock-openai-server.js';

const suiteFile = (stepBudget: number): string => `tasks:
- id: settings-airplane-on
  app: com.android.settings
  instruction: Turn on airplane mode of my phone
  source: {benchmark: androidlab, id: setting_0, metricType: query_detect, judge: adb_command}
  difficulty: easy
  start: {launch: com.android.settings}
  success:
    state:
    - {app: com.android.settings, path: network.airplaneMode, op: equals, value: true}
  allowedPackages: [com.android.settings]
  stepBudget: ${stepBudget}
`;

let root: string;
let server: MockOpenAiServer;
let cassette: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-cassette-use-'));
  server = await startMockOpenAiServer({ reply: (request) => JSON.stringify(labelMatchAnswer(request)) });
  cassette = path.join(root, 'calls.jsonl');
  await writeSuite('suite', 10);
  const recorded = await bench('suite', 'recorded', { SENSEACT_BASE_URL: server.url, SENSEACT_MODEL: 'label-match', SENSEACT_CASSETTE: `record:${cassette}` });
  expect(recorded.code, recorded.err).toBe(0);
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function writeSuite(folder: string, stepBudget: number): Promise<void> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(path.join(root, folder), { recursive: true });
  await writeFile(path.join(root, folder, 'settings.yaml'), suiteFile(stepBudget));
}

async function bench(suite: string, out: string, env: Record<string, string>): Promise<{ code: number; err: string; results: { cassette?: { recorded: number; replayed: number; unused: unknown[]; strict: boolean } } }> {
  const stderr: string[] = [];
  const io: CliIo = { stdout: () => undefined, stderr: (text) => void stderr.push(text), cwd: root, env };
  const code = await main(['bench', '--suite', path.join(root, suite), '--device', 'sim', '--mode', 'senseact-text', '--policy', 'llm', '--out', path.join(root, out)], io);
  const results = JSON.parse(await readFile(path.join(root, out, 'results.json'), 'utf8').catch(() => { throw new Error(`bench exit ${code}: ${stderr.join('')}`); })) as Awaited<ReturnType<typeof bench>>['results'];
  return { code, err: stderr.join(''), results };
}

describe('a cassette replay reports the recorded calls it did not use', () => {
  it('negative control: the same suite replays every recorded call, no warning, exit 0 (strict too)', async () => {
    const recorded = readCassette(cassette).length;
    expect(recorded).toBeGreaterThan(1);
    const replay = await bench('suite', 'same', { SENSEACT_CASSETTE: `replay-strict:${cassette}` });
    expect(replay.code, replay.err).toBe(0);
    expect(replay.err).not.toMatch(/did not use/);
    expect(replay.results.cassette).toMatchObject({ recorded, replayed: recorded, unused: [], strict: true });
  });

  it('a step budget of 1 leaves calls unused: a warning naming them, exit 0; replay-strict: exit 4', async () => {
    const recorded = readCassette(cassette).length;
    await writeSuite('budget-1', 1);
    const replay = await bench('budget-1', 'out-budget-1', { SENSEACT_CASSETTE: `replay:${cassette}` });
    expect(replay.code, replay.err).toBe(0);
    const unused = replay.results.cassette?.unused.length ?? 0;
    expect(unused).toBeGreaterThan(0);
    expect(replay.results.cassette).toMatchObject({ recorded, replayed: recorded - unused, strict: false });
    expect(replay.err).toContain(`senseact: warning: the replay did not use ${unused} of the ${recorded} recorded calls in ${cassette} (planner ${unused})`);
    expect(replay.err).toMatch(/SENSEACT_CASSETTE=replay-strict:<file> makes this an error/);
    const strict = await bench('budget-1', 'out-budget-1-strict', { SENSEACT_CASSETTE: `replay-strict:${cassette}` });
    expect(strict.code).toBe(4);
    expect(strict.err).toContain(`senseact: the replay did not use ${unused} of the ${recorded} recorded calls`);
  });
});
