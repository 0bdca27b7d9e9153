/** Time spent inside the driver's command handlers, per Appium command name. */
export interface CommandStat {
  readonly count: number;
  readonly totalMs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

/** What `mobile: senseactStats` returns. */
export interface CommandStatsSnapshot {
  /** Sum over all commands, in milliseconds. */
  readonly totalMs: number;
  readonly count: number;
  readonly commands: Readonly<Record<string, CommandStat>>;
}

const maxSamplesPerCommand = 10_000;

/**
 * Per-command latency samples measured inside the driver (from the moment Appium hands
 * the command to the driver until the handler returns), so a client can split a call's
 * time into driver time and everything else (HTTP, Appium's routing, the client).
 */
export class CommandStats {
  private readonly samples = new Map<string, number[]>();

  record(command: string, durationMs: number): void {
    let list = this.samples.get(command);
    if (!list) {
      list = [];
      this.samples.set(command, list);
    }
    if (list.length >= maxSamplesPerCommand) list.shift();
    list.push(durationMs);
  }

  reset(): void {
    this.samples.clear();
  }

  snapshot(): CommandStatsSnapshot {
    const commands: Record<string, CommandStat> = {};
    let totalMs = 0;
    let count = 0;
    for (const [command, list] of this.samples) {
      const sorted = [...list].sort((a, b) => a - b);
      const sum = sorted.reduce((acc, value) => acc + value, 0);
      commands[command] = { count: sorted.length, totalMs: sum, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95) };
      totalMs += sum;
      count += sorted.length;
    }
    return { totalMs, count, commands };
  }
}

/** Nearest-rank quantile of an ascending list; 0 for an empty list. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? 0;
}
