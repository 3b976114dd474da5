import { z } from 'zod';

/** A webhook source's ID in a path (its delivery URL, the settings API's and the console's routes). */
export const sourceParams = z.object({ sourceId: z.string().min(1).max(100, 'must be at most 100 characters') });
