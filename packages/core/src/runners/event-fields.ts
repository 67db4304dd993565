import * as z from 'zod';

/**
 * A token count kept as reported, whatever it is: the trace builder's `count` takes it or
 * records it as unreadable, so a count that is not a number is never read as 0. Every agent's
 * event parser reads token counts through this one schema.
 */
export const reportedCount = z.unknown().optional();

/** A count or cost that is not a token count: a non-negative number, else absent. */
export const eventCount = z.number().nonnegative().optional().catch(undefined);
