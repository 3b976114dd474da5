import { z } from 'zod';
import { jsonBody } from './fields';

const identifier = z.string({ error: 'must be a string' }).max(1000, 'must be at most 1000 characters').optional();

/** Whom an erasure request names (settings API and console alike): any of the person's identifiers. */
export const erasureSubjectBody = jsonBody({ userId: identifier, anonymousId: identifier, email: identifier, phone: identifier }).refine(
  (subject) => Object.values(subject).some((value) => value !== undefined),
  'must name the person by at least one of userId, anonymousId, email, phone',
);
