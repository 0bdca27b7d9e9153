import { describe, expect, it } from 'vitest';
import { ActionsError, gesturesFromActions } from '../../../src/sim/appium-driver/pointer-gesture.js';

const finger = (actions: object[]) => [{ type: 'pointer', id: 'finger1', parameters: { pointerType: 'touch' }, actions }];
const options = { elementCenter: (id: string): [number, number] => (id === 'el-1' ? [100, 200] : [0, 0]) };

describe('gesturesFromActions (W3C actions → simulator gestures)', () => {
  it('reads down/up in place as a tap', () => {
    const gestures = gesturesFromActions(finger([{ type: 'pointerMove', x: 10, y: 20 }, { type: 'pointerDown' }, { type: 'pause', duration: 50 }, { type: 'pointerUp' }]), options);
    expect(gestures).toEqual([{ kind: 'tap', x: 10, y: 20 }]);
  });

  it('reads a long hold as a long press', () => {
    const gestures = gesturesFromActions(finger([{ type: 'pointerMove', x: 10, y: 20 }, { type: 'pointerDown' }, { type: 'pause', duration: 700 }, { type: 'pointerUp' }]), options);
    expect(gestures).toEqual([{ kind: 'long-press', x: 10, y: 20, durationMs: 700 }]);
  });

  it('reads movement while down as a swipe from first to last point', () => {
    const gestures = gesturesFromActions(
      finger([{ type: 'pointerMove', x: 500, y: 1500 }, { type: 'pointerDown' }, { type: 'pointerMove', duration: 100, x: 500, y: 1000 }, { type: 'pointerMove', duration: 100, origin: 'pointer', x: 0, y: -500 }, { type: 'pointerUp' }]),
      options,
    );
    expect(gestures).toEqual([{ kind: 'swipe', from: [500, 1500], to: [500, 500], durationMs: 200 }]);
  });

  it('resolves element origins to the element center plus the offset', () => {
    const gestures = gesturesFromActions(finger([{ type: 'pointerMove', origin: { 'element-6066-11e4-a52e-4f735466cecf': 'el-1' }, x: 5, y: -5 }, { type: 'pointerDown' }, { type: 'pointerUp' }]), options);
    expect(gestures).toEqual([{ kind: 'tap', x: 105, y: 195 }]);
  });

  it('types key sources and presses enter', () => {
    const gestures = gesturesFromActions([{ type: 'key', id: 'kb', actions: [{ type: 'keyDown', value: 'h' }, { type: 'keyUp', value: 'h' }, { type: 'keyDown', value: 'i' }, { type: 'keyUp', value: 'i' }, { type: 'keyDown', value: '\uE007' }] }], options);
    expect(gestures).toEqual([{ kind: 'text', text: 'hi' }, { kind: 'key', key: 'enter' }]);
  });

  it('rejects malformed and unsupported input', () => {
    expect(() => gesturesFromActions({}, options)).toThrow(ActionsError);
    expect(() => gesturesFromActions(finger([{ type: 'pointerUp' }]), options)).toThrow(/without a preceding pointerDown/);
    expect(() => gesturesFromActions(finger([{ type: 'pointerDown' }]), options)).toThrow(/still down/);
    expect(() => gesturesFromActions([{ type: 'key', actions: [{ type: 'keyDown', value: '\uE003' }] }], options)).toThrow(/special key U\+E003/);
    expect(() => gesturesFromActions([{ type: 'joystick', actions: [] }], options)).toThrow(/Unsupported input source type/);
  });
});
