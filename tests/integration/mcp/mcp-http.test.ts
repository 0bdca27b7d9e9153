// `senseact mcp --http`: Streamable HTTP on loopback behind a bearer token. The
// built CLI serves the simulator; the SDK's Client connects with the token, a request
// without it (or with a wrong one, or a foreign Host) is turned away. A client that cannot
// elicit gets an action that cannot be undone refused. Binding beyond loopback is refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const token = 'test-token-5f2c9a';
let root: string;
let server: ChildProcess;
let url: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'senseact-mcp-http-'));
  server = spawn(process.execPath, [path.join(repoRoot, 'bin', 'senseact.js'), 'mcp', '--http', '127.0.0.1:0', '--launch', 'com.google.android.deskclock', '--runs', path.join(root, 'runs')], {
    cwd: root,
    env: { ...process.env, SENSEACT_MCP_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    server.once('exit', (code) => reject(new Error(`senseact mcp --http exited with ${code}: ${seen}`)));
  });
}, 60_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(root, { recursive: true, force: true });
});

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** A raw POST of an initialize request, with the headers given (Host can be set here, unlike with fetch). */
function post(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.once('error', reject);
    sent.end(initialize);
  });
}

describe('senseact mcp --http', () => {
  it('turns away a request without the token, with a wrong one, or for a foreign Host', async () => {
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer wrong-token-000000' })).toBe(401);
    expect(await post({ authorization: `Bearer ${token}`, host: 'attacker.example:80' })).toBe(403);
  });

  it('serves the tools to a client with the token; a client that cannot elicit gets an irreversible action refused', async () => {
    const client = new Client({ name: 'senseact-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['act', 'check', 'observe', 'run', 'screenshot', 'skills']);
      const act = async (target: string): Promise<Record<string, unknown>> => ((await client.callTool({ name: 'act', arguments: { commitment: [{ target }] } })) as CallToolResult).structuredContent ?? {};
      expect((await act('desc="Expand 8:30 AM alarm"'))['verdict']).toBe('pass');
      const refused = await act('text="Delete"');
      expect([refused['verdict'], refused['refusal']]).toEqual(['refused', 'irreversible']);
      expect(refused['reason']).toMatch(/--allow-irreversible/);
      const check = (await client.callTool({ name: 'check', arguments: { predicate: 'exists(text="Delete")' } })) as CallToolResult;
      expect(check.structuredContent?.['holds']).toBe('true');
    } finally {
      await client.close();
    }
  });
});

describe('senseact mcp bad options', () => {
  async function run(args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const code = await main(['mcp', ...args], { stdout: () => undefined, stderr: (text) => { stderr += text; }, cwd: repoRoot, env: {} });
    return { code, stderr };
  }

  it('refuses a non-loopback bind unless told, a malformed address, and a bad --allow (exit 2)', async () => {
    const remote = await run(['--http', '0.0.0.0:8765']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/0\.0\.0\.0 is not a loopback address.*--allow-remote/);
    const malformed = await run(['--http', 'localhost']);
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringMatching(/expected host:port/)]);
    const allow = await run(['--allow', 'settings']);
    expect([allow.code, allow.stderr]).toEqual([2, expect.stringMatching(/"settings", which is not an Android package name/)]);
  });
});
