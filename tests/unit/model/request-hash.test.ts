import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../../src/model/cassette.js';
import type { VisionModelRequest } from '../../../src/model/vision-model.js';

const message = fc.oneof(
  fc.record({ role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const), content: fc.string({ maxLength: 40 }) }),
  fc.record({ role: fc.constant('user' as const), content: fc.string({ maxLength: 40 }), images: fc.array(fc.record({ png: fc.uint8Array({ minLength: 1, maxLength: 64 }) }), { minLength: 1, maxLength: 2 }) }),
);
const request = fc.record({ role: fc.constantFrom('planner' as const, 'vision' as const), messages: fc.array(message, { minLength: 1, maxLength: 4 }) });

describe('requestHash', () => {
  it('is a 32-hex digest that ignores the signal and the object identity of images', () => {
    fc.assert(
      fc.property(request, (value: VisionModelRequest) => {
        const copy: VisionModelRequest = {
          ...value,
          signal: new AbortController().signal,
          messages: value.messages.map((item) => ('images' in item ? { ...item, images: item.images.map((image) => ({ png: image.png.slice() })) } : { ...item })),
        };
        const hash = requestHash(value, 'm');
        expect(hash).toMatch(/^[0-9a-f]{32}$/);
        expect(requestHash(copy, 'm')).toBe(hash);
      }),
      { numRuns: 100 },
    );
  });

  it('changes with the model, the role, any text, any image byte, the temperature and the token limit', () => {
    fc.assert(
      fc.property(request, (value: VisionModelRequest) => {
        const hash = requestHash(value, 'm');
        expect(requestHash(value, 'm2')).not.toBe(hash);
        expect(requestHash({ ...value, role: value.role === 'planner' ? 'vision' : 'planner' }, 'm')).not.toBe(hash);
        expect(requestHash({ ...value, temperature: 0.5 }, 'm')).not.toBe(hash);
        expect(requestHash({ ...value, maxTokens: 7 }, 'm')).not.toBe(hash);
        const [first, ...rest] = value.messages;
        if (first === undefined) return;
        expect(requestHash({ ...value, messages: [{ ...first, content: `${first.content}.` }, ...rest] }, 'm')).not.toBe(hash);
        if ('images' in first) {
          const image = first.images[0];
          if (image === undefined) return;
          const png = image.png.slice();
          png[0] = (png[0] ?? 0) ^ 1;
          expect(requestHash({ ...value, messages: [{ ...first, images: [{ png }, ...first.images.slice(1)] }, ...rest] }, 'm')).not.toBe(hash);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('is pinned: a recorded cassette keeps matching across versions', () => {
    // Changing the canonical form invalidates every recorded cassette: bump cassetteVersion then.
    expect(requestHash({ role: 'planner', messages: [{ role: 'user', content: 'Turn Wi-Fi off' }] }, 'gpt-4o')).toBe('3cdd97f0a7730331ca257cb854f3af91');
  });
});
