/** Ends every `switch` over a discriminated union: a new member becomes a compile error. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
