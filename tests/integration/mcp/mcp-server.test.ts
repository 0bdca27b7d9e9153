// `senseact mcp` over stdio: the SDK's own Client spawns the built CLI
// (bin/senseact.js, dist/) on the simulator and calls every tool. One server for the file:
// the device session stays open across calls, so the tests run in order on one simulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveSkill } from '../../../src/skills/skill-library.js';
import { skillSchema } from '../../../src/skills/skill-schema.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const settings = 'com.android.settings';
const clock = 'com.google.android.deskclock';
const airplaneOn = 'checked(is=switch, near(text="Airplane mode"))';

let root: string;
let client: Client;
/** What the test's person answers to the next confirmation, and the questions asked. */
let answer: 'accept' | 'decline' = 'decline';
const asked: string[] = [];

/** The process environment without any model configuration: `run` must find none. */
function environmentWithoutModels(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^(SENSEACT_|OPENAI_)/.test(entry[0])));
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-mcp-'));
  // A hand-written skill for the skills tool: Network & internet, then the airplane switch.
  saveSkill(path.join(root, 'skills'), skillSchema.parse({
    name: 'settings-airplane-on', app: settings, template: 'Turn on airplane mode', precondition: 'exists(text="Network & internet")',
    steps: [
      { intent: 'Open Network & internet', actions: [{ unit: 'click', target: 'text="Network & internet"' }], expect: 'exists(text="Airplane mode")' },
      { intent: 'Switch airplane mode on', actions: [{ unit: 'toggle', target: 'is=switch, near(text~"Airplane mode")', checked: true }], expect: airplaneOn },
    ],
  }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(repoRoot, 'bin', 'senseact.js'), 'mcp', '--launch', settings, '--allow', `${settings},${clock}`, '--skills', path.join(root, 'skills'), '--runs', path.join(root, 'runs')],
    cwd: root,
    env: environmentWithoutModels(),
    stderr: 'pipe',
  });
  client = new Client({ name: 'senseact-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await rm(root, { recursive: true, force: true });
});

type Structured = Record<string, unknown>;

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ result: CallToolResult; data: Structured; text: string }> {
  const result = await client.callTool({ name, arguments: args }) as CallToolResult;
  const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return { result, data: (result.structuredContent ?? {}) as Structured, text };
}

const act = (commitment: Record<string, unknown>[], expect?: string) => call('act', { commitment, ...(expect === undefined ? {} : { expect }) });
const holds = async (predicate: string): Promise<unknown> => (await call('check', { predicate })).data['holds'];

describe('senseact mcp over stdio on the simulator', () => {
  it('lists the six tools, each with an input and an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['act', 'check', 'observe', 'run', 'screenshot', 'skills']);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
    const act = tools.find((tool) => tool.name === 'act');
    expect(Object.keys(act?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['commitment', 'expect']));
  });

  it('observe gives the lean view by default, units and XML only when asked', async () => {
    const lean = await call('observe');
    expect(lean.data['app']).toBe(settings);
    // The simulator tells its task's stack: Settings' main page alone.
    expect(lean.data['activityStack']).toEqual([`${settings}/.Settings`]);
    expect(lean.data['view']).toContain('click "Network & internet"');
    expect(lean.data['screen']).toMatch(/^[0-9a-f]{8}$/);
    expect(lean.data['units']).toBeUndefined();
    expect(lean.data['xml']).toBeUndefined();
    expect(lean.text).toMatch(/^screen [0-9a-f]{8}\napp com\.android\.settings/);
    const full = await call('observe', { units: true, xml: true });
    expect(full.data['screen']).toBe(lean.data['screen']);
    expect((full.data['units'] as { type: string }[]).some((unit) => unit.type === 'scroll')).toBe(true);
    expect(full.data['xml']).toContain('<hierarchy');
  });

  it('check says true, false or unknown, and refuses a predicate that does not parse', async () => {
    expect(await holds('exists(text="Network & internet")')).toBe('true');
    const missing = await call('check', { predicate: 'exists(text="No such row")' });
    expect(missing.data['holds']).toBe('false');
    expect(missing.data['reason']).toContain('No such row');
    expect(await holds('{"kind":"exists","query":{"text":{"op":"equals","value":"Battery"}}}')).toBe('true');
    const bad = await call('check', { predicate: 'exists(text=' });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(/check: .*column/i);
  });

  it('refuses what cannot run (unknown unit, a target not on screen, the wrong type, another app) and does nothing', async () => {
    const before = (await call('observe')).data['screen'];
    const unknown = await act([{ unit: 'n0000' }]);
    expect([unknown.result.isError, unknown.data['verdict'], unknown.data['refusal']]).toEqual([true, 'refused', 'inadmissible']);
    expect(unknown.data['reason']).toContain('n0000');
    const absent = await act([{ target: 'text="Bluetooth name"' }]);
    expect([absent.data['verdict'], absent.data['refusal']]).toEqual(['refused', 'unknown-target']);
    const wrongType = await act([{ target: 'text="Battery"', value: 'typed into a row' }]);
    expect([wrongType.data['verdict'], wrongType.data['refusal']]).toEqual(['refused', 'inadmissible']);
    const elsewhere = await act([{ unit: 'nav-launch', value: 'com.android.chrome' }]);
    expect([elsewhere.data['verdict'], elsewhere.data['refusal']]).toEqual(['refused', 'outside-allowed-apps']);
    const badExpectation = await act([{ target: 'text="Battery"' }], 'exists(text=');
    expect(badExpectation.data['refusal']).toBe('bad-expectation');
    expect((await call('observe')).data['screen']).toBe(before);
  });

  it('skills lists, matches (and does not match another instruction) and runs a verified skill without a model', async () => {
    const listed = await call('skills', { action: 'list' });
    expect(listed.data['skills']).toEqual([expect.objectContaining({ name: 'settings-airplane-on', steps: 2 })]);
    const other = await call('skills', { action: 'match', instruction: 'Turn off airplane mode' });
    expect((other.data['match'] as Structured)['skill']).toBeUndefined();
    const matched = await call('skills', { action: 'match', instruction: 'Turn on airplane mode' });
    expect((matched.data['match'] as Structured)['skill']).toBe('settings-airplane-on');
    const ran = await call('skills', { action: 'run', instruction: 'Turn on airplane mode' });
    expect(ran.data['run']).toEqual(expect.objectContaining({ outcome: 'completed', steps: 2 }));
    await call('observe');
    expect(await holds(airplaneOn)).toBe('true');
  });

  it('act runs the loop\'s execute and verify: a pass with its evidence, a fail when the expectation does not show', async () => {
    const off = await act([{ target: 'is=switch, near(text~"Airplane mode")', checked: false }], `not ${airplaneOn}`);
    expect(off.data['verdict']).toBe('pass');
    expect(off.data['units']).toEqual([expect.objectContaining({ type: 'toggle', verdict: 'pass' })]);
    expect((off.data['change'] as string[]).join(' ')).toMatch(/on → off/);
    expect((off.data['after'] as Structured)['view']).toMatch(/toggle "Airplane mode" unchecked/);
    // The session keeps its state: the switch is off on the device, as check sees.
    expect(await holds(airplaneOn)).toBe('false');
    const wrong = await act([{ target: 'is=switch, near(text~"Airplane mode")', checked: true }], `not ${airplaneOn}`);
    expect(wrong.data['verdict']).toBe('fail');
    expect(wrong.text).toMatch(/^fail/);
  });

  it('screenshot returns a PNG and counts it', async () => {
    const shot = await call('screenshot');
    const image = shot.result.content.find((part) => part.type === 'image');
    const png = image?.type === 'image' ? Buffer.from(image.data, 'base64') : Buffer.alloc(0);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The structured size is the PNG's own (IHDR width and height).
    expect(shot.data).toEqual({ screenshots: 1, width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.byteLength });
    expect((await call('observe')).data['screenshots']).toBe(1);
  });

  it('asks before an action that cannot be undone: declined leaves the alarm, accepted deletes it', async () => {
    expect((await act([{ unit: 'nav-launch', value: clock }])).data['verdict']).toBe('pass');
    await act([{ target: 'desc="Expand 8:30 AM alarm"' }]);
    answer = 'decline';
    const declined = await act([{ target: 'text="Delete"' }], 'absent(desc~"8:30 AM alarm")');
    expect([declined.data['verdict'], declined.data['refusal']]).toEqual(['refused', 'declined']);
    expect(asked.at(-1)).toMatch(/click "Delete" \(its label says "delete"\)/);
    await call('observe');
    expect(await holds('exists(text="8:30 AM")')).toBe('true');
    answer = 'accept';
    const accepted = await act([{ target: 'text="Delete"' }], 'absent(text="8:30 AM")');
    expect(accepted.data['verdict']).toBe('pass');
    expect(asked).toHaveLength(2);
    expect(await holds('exists(text="8:30 AM")')).toBe('false');
  });

  it('run is refused clearly without a configured model', async () => {
    const ran = await call('run', { instruction: 'Turn on airplane mode' });
    expect(ran.result.isError).toBe(true);
    expect(ran.text).toMatch(/run needs a configured model.*SENSEACT_MODEL/s);
  });

  it('serves the session\'s trace read-only as senseact://runs/..., and nothing outside the runs folder', async () => {
    const { resources } = await client.listResources();
    const trace = resources.find((resource) => /^senseact:\/\/runs\/mcp\/session\/[^/]+\/trace\.jsonl$/.test(resource.uri));
    expect(trace).toBeDefined();
    const read = await client.readResource({ uri: trace!.uri });
    const first = read.contents[0];
    expect(first && 'text' in first ? first.text : '').toContain('"type":"verify-end"');
    await expect(client.readResource({ uri: 'senseact://runs/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(/outside the runs folder/);
  });

  it("lists a bench's closed compact run by its trace.jsonl.gz and serves it as its text", async () => {
    const writer = new TraceWriter({ root: path.join(root, 'runs'), suite: 'bench', task: 'compact-task', runId: 'senseact-r0', format: 'compact' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.emit({ type: 'step-end', step: 0 });
    await writer.close();
    const file = path.join(writer.dir, 'trace.jsonl.gz');
    // Negative control: the file itself holds no event text (it is compressed).
    expect(readFileSync(file).includes('"type":"step-end"')).toBe(false);
    const { resources } = await client.listResources();
    const trace = resources.find((resource) => resource.uri === 'senseact://runs/bench/compact-task/senseact-r0/trace.jsonl.gz');
    expect(trace?.mimeType).toBe('application/x-ndjson');
    const first = (await client.readResource({ uri: trace!.uri })).contents[0];
    expect(first && 'text' in first ? first.text : '').toContain('"type":"step-end"');
    // Cut short (a run killed while it wrote the file): what it holds still reads, its last line torn.
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, whole.length - 12));
    const cut = (await client.readResource({ uri: trace!.uri })).contents[0];
    expect(cut && 'text' in cut ? cut.text : '').toContain('"type":"step-start"');
  });
});
