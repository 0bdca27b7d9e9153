import { describe, expect, it } from 'vitest';
import { fillPlaceholders, findNumbers, findQuoted, findTimes, liftLiteral, projections } from '../../../src/skills/skill-parameters.js';

describe('skill parameters', () => {
  it('finds times, quoted text and numbers as people write them', () => {
    expect(findTimes('Set an alarm for 6:45AM, and 10:30 pm, and 9am').map((found) => found.value)).toEqual(['6:45AM', '10:30 pm', '9am']);
    expect(findQuoted(`Label it "Watch Football" and 'diary' but not Bob's`).map((found) => found.value)).toEqual(['Watch Football', 'diary']);
    expect(findNumbers('number 12345678, born 1996/10/24, not A380').map((found) => found.value)).toEqual(['12345678', '1996/10/24']);
  });

  it('projects a time onto what clock screens show', () => {
    expect(projections('time', '3PM')).toEqual({ '': '3PM', hour: '3', hour24: '15', minute: '0', minute2: '00', ampm: 'PM' });
    expect(projections('time', '12:05 am')).toMatchObject({ hour: '12', hour24: '0', minute: '5', minute2: '05', ampm: 'AM' });
    expect(projections('time', '13PM')).toEqual({ '': '13PM' });
  });

  it('lifts token-bounded recurrences, with case, and never inside another word', () => {
    const bindings = { time: { type: 'time' as const, value: '3PM' }, option: { type: 'option' as const, value: 'ABC' } };
    expect(liftLiteral("3 o'clock", bindings).text).toBe("{time.hour} o'clock");
    expect(liftLiteral('30 minutes', bindings).text).toBe('30 minutes');
    // Negative control: the website abc.github.com holds no contact "ABC".
    expect(liftLiteral('abc.github.com', bindings).text).toBe('abc.github.com');
    expect(liftLiteral('Open ABC', bindings).text).toBe('Open {option}');
    // A whole literal in another case is the value itself (the instruction's "abc" is the screen's "ABC").
    expect(liftLiteral('abc', bindings).text).toBe('{option}');
  });

  it('leaves a token two parameters could explain alone, and says so', () => {
    const lifted = liftLiteral('5 minutes', { time: { type: 'time', value: '5PM' }, number: { type: 'number', value: '5' } });
    expect(lifted.text).toBe('5 minutes');
    expect(lifted.ambiguous[0]).toContain('{time.hour}');
  });

  it('fills placeholders and names the ones it cannot fill', () => {
    const bindings = { time: { type: 'time' as const, value: '6:45AM' } };
    expect(fillPlaceholders('desc="{time.hour} o\'clock", {time.minute2} {time.ampm}', bindings)).toEqual({ text: 'desc="6 o\'clock", 45 AM' });
    expect(fillPlaceholders('{label} at {time.second}', bindings)).toEqual({ missing: ['{label}', '{time.second}'] });
  });
});

describe('a time shown on a screen', () => {
  const bindings = { time: { type: 'time' as const, value: '8:00 am' } };

  it('lifts whole when it is the parameter', () => {
    expect(liftLiteral('8:00 AM', bindings).text).toBe('{time.hour}:{time.minute2} {time.ampm}');
    expect(liftLiteral('Expand 8:00 AM alarm', bindings).text).toBe('Expand {time.hour}:{time.minute2} {time.ampm} alarm');
  });

  it('negative control: another time keeps its hour, even when it equals the parameter\'s', () => {
    expect(liftLiteral('8:30 AM', bindings).text).toBe('8:30 AM');
    expect(liftLiteral('Expand 8:30 AM alarm', bindings)).toMatchObject({ text: 'Expand 8:30 AM alarm', used: [] });
    // Outside a shown time the hour still recurs as itself.
    expect(liftLiteral("8 o'clock", bindings).text).toBe("{time.hour} o'clock");
  });

  it('is compared as it is when no parameter is a time', () => {
    expect(liftLiteral('9:00 AM alarm', { probe: { type: 'text', value: '9:00' } }).used).toEqual(['{probe}']);
  });
});
