// The CLI as a process: what only real pipes show.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/** Runs the CLI and closes its stdout after `keepBytes` bytes, like `| head -c keepBytes`. */
async function runClosingStdout(args: readonly string[], keepBytes: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'senseact-process.ts'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.length >= keepBytes) child.stdout.destroy();
  });
  return await new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('senseact as a process', () => {
  it('stops quietly with exit 0 when the reader closes the pipe (inspect <dir> | head)', async () => {
    const result = await runClosingStdout(['inspect', 'tests/fixtures/dump-corpus'], 200);
    expect(result.stdout).toContain('== tests/fixtures/dump-corpus/');
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
