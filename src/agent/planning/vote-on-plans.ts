import { generateStructured, type GenerateStructuredResult } from '../../model/generate-structured.js';
import { countImages, type VisionMessage } from '../../model/vision-model.js';
import { safeParsePredicate } from '../../verify/parse-predicate.js';
import type { Predicate, Query } from '../../verify/predicate.js';
import { commitmentOf, planReplySchema, type PlanReply } from './plan-reply.js';
import { ledgerSince } from './planning-usage.js';
import type { SenseActContext, SenseActState } from '../loop/senseact-state.js';

/** What a vote chose, with the counts the trace shows. */
export interface VoteResult {
  readonly chosen: PlanReply;
  readonly key: string;
  readonly candidates: readonly { readonly key: string; readonly votes: number; readonly specificity: number }[];
  /** More than one commitment had the most votes: the expectation's specificity decided. */
  readonly tieBroken: boolean;
}

/**
 * The key votes are counted on: the commitment's units with their arguments in order
 * (`FINISH` for a finish, with its answer; `SKILL` with the name and arguments for a skill call). Two plans that would do the same thing vote
 * together whatever their intents say.
 */
export function commitmentKey(plan: PlanReply): string {
  if (plan.finish) return plan.answer === undefined ? 'FINISH' : `FINISH answer=${JSON.stringify(plan.answer)}`;
  if (plan.skill !== undefined) return `SKILL ${plan.skill} ${(plan.arguments ?? []).map((pair) => `${pair.name}=${JSON.stringify(pair.value)}`).sort().join(' ')}`;
  return commitmentOf(plan).map((item) => [
    item.unit === 'look-for' ? `look-for(${plan.lookFor ?? ''})` : item.unit,
    item.value === undefined ? '' : `=${JSON.stringify(item.value)}`,
    item.checked === undefined ? '' : ` checked=${item.checked}`,
    item.direction === undefined ? '' : ` ${item.direction}`,
    item.longPress === true ? ' long' : '',
  ].join('')).join('; ');
}

function querySelectors(query: Query): number {
  const own = (['is', 'text', 'desc', 'id', 'hint', 'label', 'nth'] as const).filter((field) => query[field] !== undefined).length;
  return own + (query.within ? querySelectors(query.within) : 0) + (query.near ? querySelectors(query.near) : 0);
}

function predicateSpecificity(predicate: Predicate): number {
  switch (predicate.kind) {
    case 'and':
    case 'or':
      return predicate.operands.reduce((sum, operand) => sum + predicateSpecificity(operand), 0);
    case 'not':
      return predicateSpecificity(predicate.operand);
    case 'screenChanged':
    case 'newSurface':
    case 'dismissedSurface':
      return 1;
    case 'package':
    case 'activity':
      return 2;
    default:
      return 2 + querySelectors(predicate.query);
  }
}

/**
 * How specific an expectation is: 2 per atom about named nodes or the app (1 per atom
 * that only says "something changed"), plus 1 per query selector. An empty or invalid
 * expectation scores 0. Breaks ties between commitments with equal votes: the plan that
 * says more precisely what must follow can be checked more sharply.
 */
export function expectationSpecificity(expectation: string): number {
  if (expectation.trim() === '') return 0;
  const parsed = safeParsePredicate(expectation);
  return parsed.success ? predicateSpecificity(parsed.value) : 0;
}

/**
 * Picks one plan from samples by majority over their commitments ({@link commitmentKey});
 * among equally voted commitments the one whose best expectation is most specific, then
 * the earliest sampled. The chosen plan is that commitment's most specific sample. Pure.
 */
export function voteOnPlans(samples: readonly PlanReply[]): VoteResult {
  if (samples.length === 0) throw new Error('voteOnPlans: no samples to vote on');
  const groups = new Map<string, { votes: number; best: PlanReply; specificity: number; first: number }>();
  samples.forEach((plan, index) => {
    const key = commitmentKey(plan);
    const specificity = expectationSpecificity(plan.expectation);
    const group = groups.get(key);
    if (!group) groups.set(key, { votes: 1, best: plan, specificity, first: index });
    else {
      group.votes += 1;
      if (specificity > group.specificity) {
        group.best = plan;
        group.specificity = specificity;
      }
    }
  });
  const ranked = [...groups.entries()].sort(([, a], [, b]) => b.votes - a.votes || b.specificity - a.specificity || a.first - b.first);
  const [key, winner] = ranked[0] as [string, { votes: number; best: PlanReply; specificity: number }];
  const tieBroken = ranked.filter(([, group]) => group.votes === winner.votes).length > 1;
  return { chosen: winner.best, key, candidates: ranked.map(([candidateKey, group]) => ({ key: candidateKey, votes: group.votes, specificity: group.specificity })), tieBroken };
}

/**
 * Asks the planner for a plan: one call, or with `--vote n` (n > 1) n calls at the vote's
 * temperature and the commitment by majority ({@link voteOnPlans}). The extra calls and
 * their tokens are counted in the run's planning usage and traced (`vote-end`). Returns
 * what the chosen sample's structured call returned, its plan replaced by the vote's.
 * Messages that carry a screenshot (`senseact-vlm-always`) go to the vision model in the
 * planner role, as react-vlm's do; the session counts them as vision calls.
 */
export async function samplePlan(context: SenseActContext, state: SenseActState, messages: readonly VisionMessage[]): Promise<GenerateStructuredResult<PlanReply>> {
  const { session } = context;
  const vote = context.planning?.vote;
  const samples = vote && vote.samples > 1 ? vote.samples : 1;
  const model = countImages(messages).images > 0 ? session.vision : session.planner;
  if (model === undefined) throw new Error('samplePlan: a planner prompt with a screenshot needs a vision model (runSenseAct checks this before the first round)');
  const ask = (): Promise<GenerateStructuredResult<PlanReply>> => generateStructured<typeof planReplySchema, VisionMessage>(model, {
    role: 'planner',
    schema: planReplySchema,
    schemaName: 'PlanReply',
    messages,
    ...(session.signal ? { signal: session.signal } : {}),
    ...(samples > 1 && vote ? { temperature: vote.temperature } : {}),
    instructJson: false,
  });
  if (samples === 1) return ask();
  const first = await ask();
  const afterFirst = session.ledger.entries.length;
  const replies = [first];
  for (let index = 1; index < samples; index++) replies.push(await ask());
  const extra = ledgerSince(session.ledger, afterFirst);
  const result = voteOnPlans(replies.map((reply) => reply.value));
  state.planning.voteExtraCalls += extra.calls;
  state.planning.voteExtraTokens += extra.tokens;
  if (result.candidates.length > 1) state.planning.voteSplits += 1;
  session.trace.emit({ type: 'vote-end', step: session.step, samples, candidates: [...result.candidates], chosen: result.key, tieBroken: result.tieBroken, extraCalls: extra.calls, extraTokens: extra.tokens });
  const chosen = replies.find((reply) => reply.value === result.chosen) ?? first;
  return { ...chosen, attempts: replies.reduce((sum, reply) => sum + reply.attempts, 0) };
}
