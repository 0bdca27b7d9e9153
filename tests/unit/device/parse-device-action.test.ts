import { describe, expect, it } from 'vitest';
import { parseDeviceAction } from '../../../src/device/parse-device-action.js';

describe('parseDeviceAction', () => {
  const valid: Array<[string[], unknown]> = [
    [['tap', '540,1200'], { type: 'tap', point: [540, 1200] }],
    [['long-press', '10,20', '900'], { type: 'long-press', point: [10, 20], durationMs: 900 }],
    [['type', 'hello world'], { type: 'type', text: 'hello world' }],
    [['type', 'hi', '5,6'], { type: 'type', text: 'hi', point: [5, 6] }],
    [['clear'], { type: 'clear' }],
    [['clear', '5,6'], { type: 'clear', point: [5, 6] }],
    [['scroll', 'down', '0,300,1080,2000'], { type: 'scroll', direction: 'down', bounds: [0, 300, 1080, 2000] }],
    [['scroll', 'left', '0,300,1080,2000', '0.5'], { type: 'scroll', direction: 'left', bounds: [0, 300, 1080, 2000], percent: 0.5 }],
    [['swipe', '1,2', '3,4', '250'], { type: 'swipe', from: [1, 2], to: [3, 4], durationMs: 250 }],
    [['key', 'back'], { type: 'key', key: 'back' }],
    [['launch', 'com.android.settings'], { type: 'launch', packageName: 'com.android.settings' }],
    [['launch', 'com.android.settings', '.Settings'], { type: 'launch', packageName: 'com.android.settings', activity: '.Settings' }],
    // The whole action as one quoted shell word, as the README writes it: `senseact act emulator 'tap 540,1200'`.
    [['tap 540,1200'], { type: 'tap', point: [540, 1200] }],
    [['  key   back '], { type: 'key', key: 'back' }],
    [['type "hello world" 5,6'], { type: 'type', text: 'hello world', point: [5, 6] }],
    [["type 'say \"hi\"'"], { type: 'type', text: 'say "hi"' }],
    [['type "a \\"b\\" c"'], { type: 'type', text: 'a "b" c' }],
    [['type ""'], { type: 'type', text: '' }],
  ];
  it.each(valid)('%j', (words, expected) => {
    expect(parseDeviceAction(words)).toEqual({ success: true, value: expected });
  });

  const invalid: Array<[string[], RegExp]> = [
    [['tap', '540'], /tap needs one point/],
    [['tap', '1.5,2'], /tap needs one point/],
    [['key', 'volume-up'], /key: key/],
    [['scroll', 'sideways', '0,0,10,10'], /scroll: direction/],
    [['scroll', 'down', '0,0,10'], /container bounds/],
    [['scroll', 'down', '0,0,10,10', '2'], /percent/],
    [['fly'], /Unknown action 'fly'/],
    [[], /Unknown action ''/],
    [['type "hello'], /has an unclosed " quote/],
    [['tap 540 1200'], /tap needs one point X,Y \(got '540 1200'\)/],
  ];
  it.each(invalid)('rejects %j', (words, message) => {
    const result = parseDeviceAction(words);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error).toMatch(message);
      expect(result.error).toContain('Actions: tap X,Y');
    }
  });
});
