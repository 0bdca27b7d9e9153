// Ctrl-C stops a bench with exit 130 (128 + SIGINT), as a shell reports a signal and as npx
// exits on the same Ctrl-C: the code is the same however the bench was started. The resume
// hint names the signal. (An interruption by the caller's abort signal stays exit 1: the
// bench-command test.)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
let out: string;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'senseact-bench-interrupt-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

/** Starts a bench over the settings tasks and sends `signal` once its runs have started. */
async function interruptedBench(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const args = ['bench', '--suite', 'sim', '--mode', 'senseact', '--device', 'sim', '--tasks', 'settings-*', '--out', path.join(out, signal)];
  // The built CLI, as npx runs it (npm ci builds dist/): a process from the sources would spend its time compiling them.
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'senseact.js'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let sent = false;
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    // The line progress reporter (no terminal) prints "bench: 0/N runs" as the runs start.
    if (!sent && /bench: \d+\/\d+ runs/.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
  return { code, stderr };
}

describe('senseact bench stopped by a signal', () => {
  it('exits 130 on Ctrl-C (SIGINT) with the resume hint naming the signal, results.json marked incomplete', async () => {
    const { code, stderr } = await interruptedBench('SIGINT');
    expect(stderr).toContain('senseact: the benchmark was interrupted (SIGINT); finish it with: npx senseact bench --suite sim --mode senseact --device sim');
    expect(code, stderr).toBe(130);
    const results = JSON.parse(await readFile(path.join(out, 'SIGINT', 'results.json'), 'utf8')) as { complete: boolean; tasks: unknown[] };
    expect(results.complete).toBe(false);
    expect(results.tasks.length).toBeLessThan(37);
  }, 60_000);
});
