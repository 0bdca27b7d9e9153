import type { ChildProcess } from 'node:child_process';

/**
 * Calls `onLine` for every non-empty line a child writes to stdout or stderr (a line cut
 * across two chunks is joined first).
 */
export function pipeLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') onLine(line);
    });
  }
}

/**
 * Stops a child this process started: SIGTERM, then SIGKILL when it has not exited
 * after `graceMs`; resolves once it has exited. `exited` is the promise of its exit.
 */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The last `limit` lines, for error messages about a process that would not start. */
export class RecentLines {
  private readonly lines: string[] = [];
  constructor(private readonly limit = 50) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.shift();
  }

  text(): string {
    return this.lines.join('\n');
  }
}
