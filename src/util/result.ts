/** What a safe parser returns instead of throwing. */
export type Result<T, E = Error> = { success: true; value: T } | { success: false; error: E };
