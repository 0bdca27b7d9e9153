import { z } from 'zod';

/**
 * An optional field read leniently: a value of `kind` is kept, anything else (another type,
 * null) reads as absent, so one odd field in a recorder's file leaves the record readable.
 */
export function lenientField<Kind extends 'string' | 'boolean'>(kind: Kind) {
  return z.unknown().transform((value) => (typeof value === kind ? (value as Kind extends 'string' ? string : boolean) : undefined)).optional();
}
