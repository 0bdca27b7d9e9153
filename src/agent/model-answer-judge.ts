import { z } from 'zod';
import { generateStructured } from '../model/generate-structured.js';
import type { LanguageModel } from '../model/language-model.js';
import type { AnswerJudge, AnswerJudgeRequest, AnswerJudgement } from '../tasks/answer-judge.js';

const verdictSchema = z.strictObject({ correct: z.boolean(), reason: z.string() });

/**
 * Judges a query task's answer with a language model (role `judge`): does the agent's
 * answer mean the same as one of the accepted answers? For AndroidLab's answer tasks,
 * whose originals were judged by an LLM. Its verdict names the model; an invalid reply
 * after retries throws (infrastructure), it never passes silently.
 */
export class ModelAnswerJudge implements AnswerJudge {
  readonly name: string;

  constructor(private readonly model: LanguageModel) {
    this.name = `model:${model.modelName('judge')}`;
  }

  async judge(request: AnswerJudgeRequest): Promise<AnswerJudgement> {
    const reply = await generateStructured(this.model, {
      role: 'judge',
      schema: verdictSchema,
      schemaName: 'AnswerVerdict',
      messages: [
        { role: 'system', content: 'You grade answers to questions about a phone\'s apps. Reply with JSON {"correct": boolean, "reason": short}. An answer is correct when it states the same fact as one of the accepted answers (wording, units and formatting may differ); extra harmless detail is fine; a contradicting or missing fact is not.' },
        { role: 'user', content: `Question: ${request.instruction}\nAccepted answers: ${JSON.stringify(request.expected)}\nAnswer to grade: ${JSON.stringify(request.answer)}` },
      ],
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return { correct: reply.value.correct, judge: this.name, reason: `${this.name}: ${reply.value.reason}` };
  }
}
