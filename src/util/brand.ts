/** A nominal type: `Brand<string, 'UnitId'>` is a string that cannot be mixed up with other ids. */
export type Brand<T, Name extends string> = T & { readonly __brand: Name };
