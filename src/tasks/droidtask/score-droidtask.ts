import type { UnitId } from '../../perception/control-unit.js';
import type { DroidTaskEpisode, DroidTaskGroundTruth } from './load-droidtask-app.js';

/** What an agent chose on a step's screen, in our terms. */
export type DroidTaskPrediction = { readonly kind: 'finish' } | { readonly kind: 'back' } | { readonly kind: 'tap'; readonly unitId: UnitId } | { readonly kind: 'input'; readonly unitId: UnitId; readonly text: string };

/**
 * DroidTask's step rule (its evaluator, `evaluator.py`): a finish step is correct when
 * the agent finishes; a tap step when the agent does not type and picks the recorded
 * element; an input step when the agent types into the recorded element exactly the
 * recorded text; a "go back" step (AutoDroid's pseudo element) when the agent presses
 * Back. No prediction is wrong.
 */
export function isDroidTaskStepCorrect(groundTruth: DroidTaskGroundTruth, prediction: DroidTaskPrediction | undefined): boolean {
  if (prediction === undefined) return false;
  if (groundTruth.kind === 'finish') return prediction.kind === 'finish';
  if (groundTruth.kind === 'back') return prediction.kind === 'back';
  if (groundTruth.kind === 'tap') return prediction.kind === 'tap' && groundTruth.unitIds.includes(prediction.unitId);
  return prediction.kind === 'input' && groundTruth.unitIds.includes(prediction.unitId) && prediction.text === groundTruth.text;
}

/** One episode scored step by step (every step is judged with the recorded history, as in DroidTask). */
export interface DroidTaskEpisodeScore {
  readonly app: string;
  readonly taskName: string;
  readonly steps: number;
  readonly correctSteps: number;
  readonly perStep: readonly boolean[];
  /** The recorded finish step was predicted as finish. */
  readonly finishCorrect: boolean;
}

/** Scores one episode; `predictions[i]` is the agent's choice on step i's screen. */
export function scoreDroidTaskEpisode(episode: DroidTaskEpisode, predictions: readonly (DroidTaskPrediction | undefined)[]): DroidTaskEpisodeScore {
  const perStep = episode.steps.map((step, index) => isDroidTaskStepCorrect(step.groundTruth, predictions[index]));
  const finishCorrect = episode.steps.some((step, index) => step.groundTruth.kind === 'finish' && perStep[index] === true);
  return { app: episode.app, taskName: episode.taskName, steps: perStep.length, correctSteps: perStep.filter(Boolean).length, perStep, finishCorrect };
}

/** A ratio with its counts, e.g. `{ value: 0.75, numerator: 3, denominator: 4 }`. */
export interface Ratio {
  readonly value: number;
  readonly numerator: number;
  readonly denominator: number;
}

/** DroidTask's metrics, overall and per app. */
export interface DroidTaskMetrics {
  /** Correct steps / all steps (pooled over tasks): DroidTask's `Acc`. */
  readonly actionAccuracy: Ratio;
  /** Tasks with every step correct / tasks: DroidTask's `Whole_task_Acc` (completion rate). */
  readonly completionRate: Ratio;
  /** Tasks whose finish step was right / tasks. */
  readonly finishAccuracy: Ratio;
  /** Tasks with every step but a missed finish correct / tasks: DroidTask's `Whole_task_Acc_except_end`. */
  readonly completionExceptFinish: Ratio;
  readonly perApp: Readonly<Record<string, { readonly actionAccuracy: Ratio; readonly completionRate: Ratio; readonly finishAccuracy: Ratio }>>;
}

function ratio(numerator: number, denominator: number): Ratio {
  return { value: denominator === 0 ? 0 : numerator / denominator, numerator, denominator };
}

function summarize(scores: readonly DroidTaskEpisodeScore[]): { actionAccuracy: Ratio; completionRate: Ratio; finishAccuracy: Ratio; completionExceptFinish: Ratio } {
  const steps = scores.reduce((sum, score) => sum + score.steps, 0);
  const correct = scores.reduce((sum, score) => sum + score.correctSteps, 0);
  return {
    actionAccuracy: ratio(correct, steps),
    completionRate: ratio(scores.filter((score) => score.correctSteps === score.steps).length, scores.length),
    finishAccuracy: ratio(scores.filter((score) => score.finishCorrect).length, scores.length),
    completionExceptFinish: ratio(scores.filter((score) => score.correctSteps + 1 === score.steps && !score.finishCorrect).length, scores.length),
  };
}

/** Aggregates episode scores into DroidTask's metrics. */
export function computeDroidTaskMetrics(scores: readonly DroidTaskEpisodeScore[]): DroidTaskMetrics {
  const apps = [...new Set(scores.map((score) => score.app))].sort();
  const perApp = Object.fromEntries(
    apps.map((app) => {
      const { actionAccuracy, completionRate, finishAccuracy } = summarize(scores.filter((score) => score.app === app));
      return [app, { actionAccuracy, completionRate, finishAccuracy }];
    }),
  );
  return { ...summarize(scores), perApp };
}

/** Chooses an action for one step of an episode (an agent in offline step mode, a baseline, a replay). */
export type DroidTaskPredictor = (episode: DroidTaskEpisode, stepIndex: number) => Promise<DroidTaskPrediction | undefined>;

/**
 * Offline step mode over episodes: asks `predict` for every step (each with the recorded
 * history, as DroidTask does), scores the steps and aggregates DroidTask's metrics.
 * Predictor failures propagate (infrastructure), an `undefined` prediction is a wrong step.
 */
export async function runDroidTaskStepMode(episodes: readonly DroidTaskEpisode[], predict: DroidTaskPredictor): Promise<{ scores: DroidTaskEpisodeScore[]; metrics: DroidTaskMetrics }> {
  const scores: DroidTaskEpisodeScore[] = [];
  for (const episode of episodes) {
    const predictions: (DroidTaskPrediction | undefined)[] = [];
    for (let index = 0; index < episode.steps.length; index++) predictions.push(await predict(episode, index));
    scores.push(scoreDroidTaskEpisode(episode, predictions));
  }
  return { scores, metrics: computeDroidTaskMetrics(scores) };
}
