import { describe, expect, it } from 'vitest';
import { ModelAnswerJudge } from '../../../src/agent/model-answer-judge.js';
import { InvalidModelReplyError } from '../../../src/model/invalid-model-reply-error.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { taskSchema } from '../../../src/tasks/task-schema.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const task = taskSchema.parse({
  id: 'clock-query-next-alarm', app: 'com.google.android.deskclock', instruction: 'When is my next alarm?',
  source: { benchmark: 'senseact' }, answer: { expected: ['7:30 AM'], judge: 'model' },
  allowedPackages: ['com.google.android.deskclock'], stepBudget: 5, difficulty: 'easy',
});
const finalTree = parseHierarchy('<hierarchy rotation="0"><node index="0" text="Alarm" resource-id="" class="android.widget.TextView" package="com.google.android.deskclock" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,50]" /></hierarchy>');

describe('ModelAnswerJudge', () => {
  it('asks the judge model and reports which model decided', async () => {
    const model = new ScriptedLanguageModel({ model: 'judge-model', replies: [JSON.stringify({ correct: true, reason: 'half past seven in the morning is 7:30 AM' })] });
    const result = await evaluateSuccess(task, { finalTree, answer: 'half past seven in the morning', judges: { model: new ModelAnswerJudge(model) } });
    expect(result.success).toBe(true);
    expect(result.checks[0]?.judge).toBe('model:judge-model');
    const prompt = model.calls[0]!.request.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('"7:30 AM"');
    expect(prompt).toContain('half past seven in the morning');
    expect(model.calls[0]!.request.role).toBe('judge');
  });

  it('a wrong answer fails; without a model judge the exact-match fallback decides and says so', async () => {
    const model = new ScriptedLanguageModel({ replies: [JSON.stringify({ correct: false, reason: '8:00 is not 7:30' })] });
    expect((await evaluateSuccess(task, { finalTree, answer: '8:00 AM', judges: { model: new ModelAnswerJudge(model) } })).success).toBe(false);
    const fallback = await evaluateSuccess(task, { finalTree, answer: 'half past seven in the morning' });
    expect(fallback.success).toBe(false);
    expect(fallback.checks[0]?.reason).toContain('exact-match fallback');
  });

  it('an unusable judge reply is an infrastructure error, never a pass', async () => {
    const model = new ScriptedLanguageModel({ replies: ['yes', 'yes', 'yes'] });
    await expect(evaluateSuccess(task, { finalTree, answer: '7:30', judges: { model: new ModelAnswerJudge(model) } })).rejects.toSatisfy((error: unknown) => InvalidModelReplyError.isInstance(error));
  });
});
