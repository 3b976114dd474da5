import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/** 400 `{ error }` naming each field and what was wrong with it. */
export function badRequest(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const problems = error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
  return reply.code(400).send({ error: problems.join('; ') });
}
