import { describe, expect, it } from 'vitest';
import { countSubGoals } from '../../../src/tasks/count-sub-goals.js';
import { evaluateSuccess } from '../../../src/tasks/evaluate-success.js';
import { parseTaskFile } from '../../../src/tasks/load-task-file.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const contacts = 'com.google.android.contacts';

/** A contact editor with a name field and a phone field holding the given texts. */
function editor(name: string, phone: string): string {
  const field = (text: string, top: number): string =>
    `<node class="android.widget.EditText" package="${contacts}" text="${text}" content-desc="" resource-id="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,${top}][1080,${top + 150}]"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node class="android.widget.FrameLayout" package="${contacts}" text="" content-desc="" resource-id="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${field(name, 300)}${field(phone, 500)}</node></hierarchy>`;
}

function task(success: string): Task {
  const [parsed] = parseTaskFile(`tasks:
  - id: t
    app: ${contacts}
    instruction: Create contact Ada with number 123
    source: { benchmark: senseact }
    success:
${success}
    allowedPackages: [${contacts}]
    stepBudget: 5
    difficulty: easy
`, 'inline.yaml');
  if (parsed === undefined) throw new Error('no task parsed');
  return parsed;
}

async function count(subject: Task, xml: string, appState?: unknown) {
  const finalTree = parseHierarchy(xml);
  const verdict = await evaluateSuccess(subject, { finalTree, ...(appState === undefined ? {} : { appState: () => appState }) });
  return { ...countSubGoals(subject, verdict, finalTree), success: verdict.success };
}

describe('countSubGoals', () => {
  const conjunction = task(`      screen: 'exists(text="Ada") and exists(text="123")'`);

  it('counts each operand of a top-level and as a sub-goal', async () => {
    expect(await count(conjunction, editor('Ada', '123'))).toEqual({ met: 2, total: 2, success: true });
    // Negative control: the number missing fails the task and leaves one sub-goal of two.
    expect(await count(conjunction, editor('Ada', ''))).toEqual({ met: 1, total: 2, success: false });
    expect(await count(conjunction, editor('', ''))).toEqual({ met: 0, total: 2, success: false });
  });

  it('counts a screen predicate that is not a conjunction as one sub-goal', async () => {
    const single = task(`      screen: 'exists(text="Ada") or exists(text="123")'`);
    expect(await count(single, editor('Ada', ''))).toEqual({ met: 1, total: 1, success: true });
  });

  it('counts each state check, and an inconclusive one as not met', async () => {
    const state = task(`      state:
      - { app: ${contacts}, path: "contacts[0].name", op: equals, value: Ada }
      - { app: ${contacts}, path: "contacts[0].phone", op: equals, value: '123' }
      screen: 'exists(text="Ada")'`);
    expect(await count(state, editor('Ada', ''), { contacts: [{ name: 'Ada', phone: '999' }] })).toEqual({ met: 2, total: 3, success: false });
    // No app state (a real device): the two state checks are inconclusive, so not met.
    expect(await count(state, editor('Ada', ''))).toEqual({ met: 1, total: 3, success: false });
  });
});
