import type { IdentityKind, IdentityPathNode } from '../../db/types';

interface ReachedNode {
  kind: IdentityKind;
  value: string;
  hops: number;
  via: { kind: IdentityKind; value: string } | null;
}

export type LinkKind = 'same_anonymous_id' | 'same_user' | 'same_email' | 'same_phone';

/** How one node of a path joins the next one, in the words the console shows. */
export function linkBetween(from: IdentityPathNode, to: IdentityPathNode): LinkKind {
  const other = from.kind === 'anonymous_id' ? to : from;
  if (other.kind === 'user_id') return 'same_user';
  if (other.kind === 'email_sha256') return 'same_email';
  if (other.kind === 'phone_sha256') return 'same_phone';
  return 'same_anonymous_id';
}

/**
 * The walk from the converting message's identifier to the click's visitor, rebuilt from a breadth-first reach
 * (each node knows the node it was reached from). Null when the visitor is not among the reached nodes.
 */
export function pathTo(reached: readonly ReachedNode[], target: { kind: IdentityKind; value: string }): IdentityPathNode[] | null {
  const key = (node: { kind: string; value: string }) => `${node.kind}\0${node.value}`;
  const byKey = new Map(reached.map((node) => [key(node), node]));
  const path: IdentityPathNode[] = [];
  let current = byKey.get(key(target));
  while (current !== undefined && path.length <= reached.length) {
    path.unshift({ kind: current.kind, value: current.value });
    current = current.via === null ? undefined : byKey.get(key(current.via));
  }
  return path.length === 0 ? null : path;
}
