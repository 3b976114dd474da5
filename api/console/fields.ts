import { z } from 'zod';
import { requiredText } from '../../contract/fields';

export const emailField = requiredText(320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address, e.g. jo@shop.example');
/** Checked for strength where a password is chosen (accounts/passwords.ts), not where one is typed in. */
export const passwordField = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'is required').max(256, 'must be at most 256 characters');
export const roleField = z.enum(['owner', 'editor', 'viewer'], { error: 'must be owner, editor or viewer' });

/** One query parameter, given once. */
export const queryText = (max = 200) => z.string({ error: 'must be given once' }).trim().max(max, `must be at most ${max} characters`);
