// The SCG in the plan phase with scripted planners: the planner reads the order lines and
// the frontier after the screen; the orders it proposes (dependsOn) are added when the
// graph stays acyclic and bind its commitments; refused ones are reported back.
import { describe, expect, it } from 'vitest';
import { executeCommitment } from '../../../src/agent/loop/execute-commitment.js';
import { planIntent } from '../../../src/agent/planning/plan-intent.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import { phaseFixture, suiteTask, unitIdIn, unitLabelled } from './senseact-fixture.js';

const userText = (planner: ScriptedLanguageModel, call: number): string => planner.calls[call]!.request.messages.at(-1)!.content;

describe('the SCG in planning', () => {
  it('shows the planner a form\'s order and frontier after the screen, and nothing on a screen without edges', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => (/\] [a-z-]+ "Create contact"/.test(request.messages.at(-1)!.content)
      ? JSON.stringify({ intent: 'Open the editor', commitment: [{ unit: unitIdIn(request, 'Create contact') }] })
      : JSON.stringify({ intent: 'Done', finish: true })) });
    const { context, state } = await phaseFixture(suiteTask('contacts-add-xu'), { models: { planner } });
    await planIntent(context, state);
    // The contact list has no dependency: no order section (negative control).
    expect(userText(planner, 0)).not.toContain('Order (');
    const editor = await phaseFixture(suiteTask('contacts-add-xu'), { models: { planner } });
    const create = unitLabelled(editor.state, 'Create contact');
    await executeCommitment(editor.context, editor.state, { intent: 'Open the editor', expectation: '', commitment: [{ unit: create.id }], finish: false }, [{ unit: create.id }], [create]);
    await planIntent(editor.context, editor.state);
    const save = unitLabelled(editor.state, 'Save').id;
    const firstName = unitLabelled(editor.state, 'First name').id;
    const prompt = userText(planner, 1);
    const order = prompt.slice(prompt.indexOf('</screen>'));
    expect(order).toMatch(new RegExp(`Order \\(a\\|b → c: a or b before c\\):\\n(n[0-9a-f]{4}\\|)*${firstName}(\\|n[0-9a-f]{4})* → ${save}\\n`));
    expect(order).toMatch(new RegExp(`\\nfrontier: all but ${save}( |$)`));
  });

  it('adds a proposed order, holds the next commitment to it, and reports the refused ones (a cycle, an unknown id)', async () => {
    const planner = new ScriptedLanguageModel({
      replies: (request, index) => {
        const display = unitIdIn(request, 'Display');
        const battery = unitIdIn(request, 'Battery');
        if (index === 0) {
          return JSON.stringify({ intent: 'Open Display', commitment: [{ unit: display }], dependsOn: [{ unit: display, on: battery }, { unit: battery, on: display }, { unit: display, on: 'n0000' }] });
        }
        return JSON.stringify({ intent: 'Battery, then Display', commitment: [{ unit: battery }, { unit: display }] });
      },
    });
    const { context, state, events } = await phaseFixture(suiteTask('settings-dark-theme'), { models: { planner } });
    const display = unitLabelled(state, 'Display').id;
    const battery = unitLabelled(state, 'Battery').id;
    const planned = await planIntent(context, state);
    expect(state.learnedEdges).toEqual([[battery, display]]);
    const retry = userText(planner, 1);
    expect(retry).toContain(`Your previous commitment was rejected: ${display} (position 0) depends on ${battery}`);
    expect(retry).toContain(`dependsOn not added: ${battery} on ${display} (${battery} already comes before ${display}; ${display} → ${battery} would close a cycle)`);
    expect(retry).toContain(`${display} on n0000 (n0000 is not a unit of this screen)`);
    expect(retry).toContain(`Order (a|b → c: a or b before c):\n${battery} → ${display}\nfrontier: all but ${display}`);
    // The first prompt had no order section: the screen's own graph has no edge.
    expect(userText(planner, 0)).not.toContain('Order (');
    expect(planned.kind === 'commit' && planned.units.map((unit) => unit.label)).toEqual(['Battery', 'Display']);
    const planEnd = events().find((event) => event.type === 'plan-end');
    expect(planEnd?.['edgesAdded']).toEqual([`${battery} → ${display}`]);
    expect(planEnd?.['edgesRejected']).toHaveLength(2);
  });

  it('takes a plan without dependsOn as before: no edge learned, nothing reported (negative control)', async () => {
    const planner = new ScriptedLanguageModel({ replies: (request) => JSON.stringify({ intent: 'Open Display', commitment: [{ unit: unitIdIn(request, 'Display') }] }) });
    const { context, state } = await phaseFixture(suiteTask('settings-dark-theme'), { models: { planner } });
    const planned = await planIntent(context, state);
    expect(planned.kind).toBe('commit');
    expect(state.learnedEdges).toEqual([]);
    expect(state.edgeRejections).toEqual([]);
  });
});
