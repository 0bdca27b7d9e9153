import { generateStructured } from '../../model/generate-structured.js';
import type { ControlUnit } from '../../perception/control-unit.js';
import { gateCandidateLine, gateMessages } from '../prompts/agent-prompts.js';
import { visionReplySchema } from '../planning/plan-reply.js';
import type { SenseActContext } from './senseact-state.js';

/** The gate's localized question. */
export interface VisionQuestion {
  readonly intent: string;
  /** What the symbolic side could not do. */
  readonly failure: string;
  /** The planner's description of a target the text view cannot name. */
  readonly lookFor?: string;
  /** The unit whose effect did not show. */
  readonly target?: ControlUnit;
  /** What the action was expected to bring (the predicate the tree did not confirm). */
  readonly expectation?: string;
}

/** Vision's answer: a candidate, or none (then maybe "the intent already shows"). */
export interface VisionAnswer {
  readonly unit?: ControlUnit;
  readonly alreadyDone: boolean;
}

/**
 * Asks the vision model one localized question about the current screenshot: which of
 * `candidates` achieves the intent. An id that is not a candidate counts as none.
 */
export async function askVision(context: SenseActContext, question: VisionQuestion, candidates: readonly ControlUnit[]): Promise<VisionAnswer> {
  const { session } = context;
  if (!session.vision) return { alreadyDone: false };
  const png = await session.screenshot();
  const reply = await generateStructured(session.vision, {
    role: 'vision',
    schema: visionReplySchema,
    schemaName: 'VisionReply',
    messages: gateMessages({
      intent: question.intent,
      failure: question.failure,
      ...(question.lookFor === undefined ? {} : { lookFor: question.lookFor }),
      ...(question.target === undefined ? {} : { target: gateCandidateLine(question.target) }),
      ...(question.expectation === undefined ? {} : { expectation: question.expectation }),
      candidates: candidates.map(gateCandidateLine),
      png,
      ...(context.gateImageDetail === undefined ? {} : { detail: context.gateImageDetail }),
    }),
    ...(session.signal ? { signal: session.signal } : {}),
    // The gate prompt states the reply format itself, as the planner prompt does.
    instructJson: false,
  });
  const unit = candidates.find((candidate) => candidate.id === reply.value.unit);
  return unit ? { unit, alreadyDone: false } : { alreadyDone: reply.value.alreadyDone };
}
