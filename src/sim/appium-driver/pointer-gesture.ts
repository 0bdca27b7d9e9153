/**
 * W3C WebDriver actions (`POST /session/:id/actions`) turned into the gestures the
 * simulator performs. One touch pointer at a time: a down and an up at the same place
 * is a tap (a long press when held for `longPressMs` or more), a down, moves and an up
 * is a swipe along the path from the first to the last point. Key sources type their
 * characters; Enter (U+E007/U+E006) presses the enter key.
 */

/** A gesture in device pixels and milliseconds. */
export type SimGesture =
  | { readonly kind: 'tap'; readonly x: number; readonly y: number }
  | { readonly kind: 'long-press'; readonly x: number; readonly y: number; readonly durationMs: number }
  | { readonly kind: 'swipe'; readonly from: readonly [number, number]; readonly to: readonly [number, number]; readonly durationMs: number }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'key'; readonly key: 'enter' }
  | { readonly kind: 'pause'; readonly durationMs: number };

/** Thrown for action payloads the simulator does not support or that are malformed. */
export class ActionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionsError';
  }
}

export interface GestureOptions {
  /** Center of an element, for `origin: <element>`; throws when the element is unknown. */
  readonly elementCenter: (elementId: string) => readonly [number, number];
  /** Hold time from which a tap is a long press (Android's default long-press timeout). */
  readonly longPressMs?: number;
  /** Movement up to this many pixels still counts as a tap. */
  readonly touchSlopPx?: number;
}

const elementKeys = ['element-6066-11e4-a52e-4f735466cecf', 'ELEMENT'];
const enterKeys = new Set(['\uE007', '\uE006']);
const defaultLongPressMs = 500;
const defaultTouchSlopPx = 8;

/** Translates the `actions` payload into gestures, in the order their sources list them. */
export function gesturesFromActions(actions: unknown, options: GestureOptions): SimGesture[] {
  if (!Array.isArray(actions)) throw new ActionsError('`actions` must be an array of input sources.');
  const gestures: SimGesture[] = [];
  for (const source of actions) {
    if (!isRecord(source)) throw new ActionsError('Each input source must be an object.');
    const steps = source['actions'];
    if (!Array.isArray(steps)) throw new ActionsError(`Input source '${String(source['id'])}' has no actions array.`);
    switch (source['type']) {
      case 'pointer':
        gestures.push(...pointerGestures(steps, options));
        break;
      case 'key':
        gestures.push(...keyGestures(steps));
        break;
      case 'none':
      case 'wheel':
        break;
      default:
        throw new ActionsError(`Unsupported input source type '${String(source['type'])}'.`);
    }
  }
  return gestures;
}

function pointerGestures(steps: unknown[], options: GestureOptions): SimGesture[] {
  const longPressMs = options.longPressMs ?? defaultLongPressMs;
  const slop = options.touchSlopPx ?? defaultTouchSlopPx;
  const gestures: SimGesture[] = [];
  let position: [number, number] = [0, 0];
  let down: { start: [number, number]; elapsedMs: number } | undefined;
  for (const step of steps) {
    if (!isRecord(step)) throw new ActionsError('Each pointer action must be an object.');
    const duration = typeof step['duration'] === 'number' && step['duration'] > 0 ? step['duration'] : 0;
    switch (step['type']) {
      case 'pointerMove':
        position = target(step, position, options);
        if (down) down.elapsedMs += duration;
        break;
      case 'pause':
        if (down) down.elapsedMs += duration;
        else if (duration > 0) gestures.push({ kind: 'pause', durationMs: duration });
        break;
      case 'pointerDown':
        if (down) throw new ActionsError('pointerDown while the pointer is already down.');
        down = { start: [...position], elapsedMs: 0 };
        break;
      case 'pointerUp': {
        if (!down) throw new ActionsError('pointerUp without a preceding pointerDown.');
        const [startX, startY] = down.start;
        const moved = Math.hypot(position[0] - startX, position[1] - startY);
        if (moved > slop) {
          gestures.push({ kind: 'swipe', from: down.start, to: [...position], durationMs: Math.max(down.elapsedMs, 1) });
        } else if (down.elapsedMs >= longPressMs) {
          gestures.push({ kind: 'long-press', x: startX, y: startY, durationMs: down.elapsedMs });
        } else {
          gestures.push({ kind: 'tap', x: startX, y: startY });
        }
        down = undefined;
        break;
      }
      case 'pointerCancel':
        down = undefined;
        break;
      default:
        throw new ActionsError(`Unsupported pointer action '${String(step['type'])}'.`);
    }
  }
  if (down) throw new ActionsError('The pointer is still down at the end of the actions: add a pointerUp.');
  return gestures;
}

function target(step: Record<string, unknown>, current: [number, number], options: GestureOptions): [number, number] {
  const x = typeof step['x'] === 'number' ? step['x'] : 0;
  const y = typeof step['y'] === 'number' ? step['y'] : 0;
  const origin = step['origin'] ?? 'viewport';
  if (origin === 'viewport') return [Math.round(x), Math.round(y)];
  if (origin === 'pointer') return [Math.round(current[0] + x), Math.round(current[1] + y)];
  if (isRecord(origin)) {
    const key = elementKeys.find((name) => typeof origin[name] === 'string');
    if (key) {
      const [centerX, centerY] = options.elementCenter(origin[key] as string);
      return [Math.round(centerX + x), Math.round(centerY + y)];
    }
  }
  throw new ActionsError(`Unsupported pointerMove origin ${JSON.stringify(origin)}.`);
}

function keyGestures(steps: unknown[]): SimGesture[] {
  const gestures: SimGesture[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') gestures.push({ kind: 'text', text });
    text = '';
  };
  for (const step of steps) {
    if (!isRecord(step)) throw new ActionsError('Each key action must be an object.');
    if (step['type'] !== 'keyDown') continue;
    const value = step['value'];
    if (typeof value !== 'string') throw new ActionsError('keyDown needs a string value.');
    if (enterKeys.has(value)) {
      flush();
      gestures.push({ kind: 'key', key: 'enter' });
    } else if (value.codePointAt(0) !== undefined && (value.codePointAt(0) ?? 0) >= 0xe000 && (value.codePointAt(0) ?? 0) <= 0xf8ff) {
      throw new ActionsError(`Unsupported special key U+${(value.codePointAt(0) ?? 0).toString(16).toUpperCase()}.`);
    } else {
      text += value;
    }
  }
  flush();
  return gestures;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
