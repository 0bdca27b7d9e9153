import { describe, expect, it } from 'vitest';
import { parseMaestroFlow } from '../../../src/export/maestro-flow-schema.js';

const header = 'appId: com.google.android.deskclock\nname: Set an alarm\n---\n';

describe('parseMaestroFlow (the schema of the Maestro commands we emit)', () => {
  it('accepts a flow of documented commands', () => {
    const flow = `${header}- launchApp
- tapOn: Add alarm
- tapOn:
    id: (.+:id/)?fab
- longPressOn:
    text: Tokyo
- tapOn: Search
- eraseText: 50
- inputText: Tokyo
- scrollUntilVisible:
    element: Bluetooth
    direction: DOWN
- swipe:
    direction: UP
    from:
      id: list
- back
- pressKey: Home
- assertVisible: Select time
- assertNotVisible:
    text: OK
    childOf:
      id: dialog
- runFlow:
    when:
      visible:
        text: PM
        checked: false
    commands:
      - tapOn: PM
- extendedWaitUntil:
    visible: Alarm
    timeout: 5000
`;
    const parsed = parseMaestroFlow(flow);
    expect(parsed).toMatchObject({ success: true });
    if (parsed.success) expect(parsed.flow.commands).toHaveLength(15);
  });

  it.each([
    ['an unknown command', '- tapOnn: OK\n'],
    ['a misspelt selector field', '- tapOn:\n    txt: OK\n'],
    ['a direction Maestro does not know', '- scrollUntilVisible:\n    element: OK\n    direction: SIDEWAYS\n'],
    ['a key Maestro does not know', '- pressKey: Escape\n'],
    ['a runFlow without commands', '- runFlow:\n    when:\n      visible: OK\n'],
    ['a selector with only an index', '- tapOn:\n    index: 2\n'],
  ])('refuses %s', (_what, commands) => {
    const parsed = parseMaestroFlow(`${header}${commands}`);
    expect(parsed.success).toBe(false);
  });

  it('refuses a flow without its config document or appId', () => {
    expect(parseMaestroFlow('- launchApp\n').success).toBe(false);
    expect(parseMaestroFlow('name: x\n---\n- launchApp\n').success).toBe(false);
  });
});
