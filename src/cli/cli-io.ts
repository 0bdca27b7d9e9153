/** Where commands write. `main` passes the process streams; tests pass buffers. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Current working directory used to resolve relative paths. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes shared by all commands. */
export const exitCodes = {
  ok: 0,
  failure: 1,
  badInput: 2,
  inconclusive: 3,
  /** A benchmark finished, but some of its runs ended in an infrastructure error. */
  infrastructureError: 4,
  /** Stopped by Ctrl-C (SIGINT): 128 + 2, as a shell (and `npx`, which gets the signal too) reports it. */
  interrupted: 130,
  /** Stopped by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;
