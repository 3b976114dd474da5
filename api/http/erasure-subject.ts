import type { z } from 'zod';
import type { erasureSubjectBody } from '../../contract/erasures';
import { subjectNodes, type SubjectField } from '../../domain/personal-data';
import type { IdentityNode } from '../../domain/observation';
import { badRequest } from './http-error';

function unreadableIssue(field: SubjectField, region: string): string {
  switch (field) {
    case 'email':
      return 'email is not an email address (nor the SHA-256 of one)';
    case 'phone':
      return `phone is not a phone number (numbers without a country code are read in the workspace's default region, ${region})`;
    default:
      return `${field} is not a usable identifier (empty, or a placeholder such as "null" or "anonymous" that ingest never links)`;
  }
}

/** The identity-graph nodes the subject names; a 400 naming each field that names nobody. */
export function erasureNodes(subject: z.infer<typeof erasureSubjectBody>, defaultPhoneRegion: string): IdentityNode[] {
  const { nodes, unreadable } = subjectNodes(subject, defaultPhoneRegion);
  if (unreadable.length > 0) {
    const issues = unreadable.map((field) => unreadableIssue(field, defaultPhoneRegion));
    throw badRequest(issues.join('; '), issues);
  }
  return nodes;
}
