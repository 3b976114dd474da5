import type { IdentityKind, IdentityLink, IdentityNode } from './observation';

/** How far a walk goes: desktop visitor → user → email → phone visitor → its user is 4 hops. */
export const MAX_LINK_HOPS = 4;
/** A walk stops growing here (a shared junk identifier can link thousands of visitors). */
const MAX_NODES_PER_WALK = 2_000;

/** The identity links leaving these nodes; one call serves every walk of a group. */
export type LinkLoader = (from: readonly IdentityNode[]) => Promise<IdentityLink[]>;

interface Reached {
  node: IdentityNode;
  hops: number;
  /** Key of the node it was first reached from; undefined for a seed. */
  via?: string;
}

const keyOf = (node: IdentityNode) => `${node.kind}\u0000${node.value}`;

/** Every identifier reachable from one message's identifiers, each by a shortest path. */
export class IdentityWalk {
  readonly reached = new Map<string, Reached>();

  constructor(seeds: readonly IdentityNode[]) {
    for (const node of seeds) if (!this.reached.has(keyOf(node))) this.reached.set(keyOf(node), { node, hops: 0 });
  }

  /** Values of `kind` within `maxHops`, nearest first. */
  values(kind: IdentityKind, maxHops = MAX_LINK_HOPS): string[] {
    return [...this.reached.values()]
      .filter((r) => r.node.kind === kind && r.hops <= maxHops)
      .sort((a, b) => a.hops - b.hops)
      .map((r) => r.node.value);
  }

  /** The nodes from a seed of the message to `target`, both included; undefined when it was not reached. */
  pathTo(target: IdentityNode): IdentityNode[] | undefined {
    const path: IdentityNode[] = [];
    for (let at = this.reached.get(keyOf(target)); at !== undefined; at = at.via === undefined ? undefined : this.reached.get(at.via)) {
      path.unshift(at.node);
    }
    return path.length === 0 ? undefined : path;
  }

  /** Adds the nodes newly reached from this hop's frontier; returns them (the next frontier). */
  extend(frontier: readonly Reached[], links: ReadonlyMap<string, IdentityNode[]>): Reached[] {
    const next: Reached[] = [];
    for (const from of frontier) {
      for (const node of links.get(keyOf(from.node)) ?? []) {
        if (this.reached.size >= MAX_NODES_PER_WALK) return next;
        if (this.reached.has(keyOf(node))) continue;
        const reached = { node, hops: from.hops + 1, via: keyOf(from.node) };
        this.reached.set(keyOf(node), reached);
        next.push(reached);
      }
    }
    return next;
  }
}

/**
 * Breadth-first walks of the identity graph for many messages at once: each hop asks `loadLinks` once for the
 * union of every walk's frontier, so a group of a thousand conversions costs MAX_LINK_HOPS queries, not thousands.
 */
export async function walkIdentities(seedSets: readonly (readonly IdentityNode[])[], loadLinks: LinkLoader, maxHops = MAX_LINK_HOPS): Promise<IdentityWalk[]> {
  const walks = seedSets.map((seeds) => new IdentityWalk(seeds));
  let frontiers: Reached[][] = walks.map((walk) => [...walk.reached.values()]);
  for (let hop = 0; hop < maxHops; hop++) {
    const asked = new Map<string, IdentityNode>();
    for (const frontier of frontiers) for (const r of frontier) asked.set(keyOf(r.node), r.node);
    if (asked.size === 0) break;
    const links = new Map<string, IdentityNode[]>();
    for (const link of await loadLinks([...asked.values()])) {
      const from = keyOf(link.from);
      const targets = links.get(from);
      if (targets === undefined) links.set(from, [link.to]);
      else targets.push(link.to);
    }
    frontiers = walks.map((walk, i) => walk.extend(frontiers[i] as Reached[], links));
  }
  return walks;
}
