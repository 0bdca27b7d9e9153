import type { AppHintSource } from '../../memory/app-hints.js';

/** Default sampling temperature of `--vote` samples: enough spread for votes to differ. */
export const defaultVoteTemperature = 0.7;

/** Plan voting: `samples` plans per round at `temperature`, the commitment by majority. */
export interface VoteOptions {
  readonly samples: number;
  readonly temperature: number;
}

/**
 * The planning aids (docs/planning.md), each off unless set: a meta-plan of sub-tasks with
 * completion checks (`metaPlan`), majority voting over sampled plans (`vote`, with more
 * than one sample), and hints from the app abstraction memory (`appHints`). The loop's
 * code is the same with or without them; they add prompt sections and checks.
 */
export interface PlanningOptions {
  readonly metaPlan?: boolean;
  readonly vote?: VoteOptions;
  readonly appHints?: AppHintSource;
  /** Token budget of the hints in one prompt; default `defaultHintTokens`. */
  readonly hintTokens?: number;
}
