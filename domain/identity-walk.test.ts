import { walkIdentities, type LinkLoader } from './identity-walk';
import type { IdentityLink, IdentityNode } from './observation';

const user = (value: string): IdentityNode => ({ kind: 'user_id', value });
const anon = (value: string): IdentityNode => ({ kind: 'anonymous_id', value });
const email = (value: string): IdentityNode => ({ kind: 'email_sha256', value });

/** An undirected graph stored as both directed edges, as identity_links is; counts the loader's calls. */
function graph(...edges: [IdentityNode, IdentityNode][]): LinkLoader & { calls: number } {
  const links: IdentityLink[] = edges.flatMap(([a, b]) => [{ from: a, to: b }, { from: b, to: a }]);
  const loader = Object.assign(
    async (from: readonly IdentityNode[]) => {
      loader.calls += 1;
      return links.filter((l) => from.some((n) => n.kind === l.from.kind && n.value === l.from.value));
    },
    { calls: 0 },
  );
  return loader;
}

describe('identity walks', () => {
  it('finds the phone visitor of a desktop user through the shared email, with the path', async () => {
    const links = graph([user('carol'), anon('desktop')], [user('carol'), email('e1')], [anon('phone'), email('e1')]);
    const [walk] = await walkIdentities([[user('carol')]], links);
    expect(walk?.values('anonymous_id').sort()).toEqual(['desktop', 'phone']);
    expect(walk?.pathTo(anon('phone'))).toEqual([user('carol'), email('e1'), anon('phone')]);
    expect(walk?.pathTo(anon('desktop'))).toEqual([user('carol'), anon('desktop')]);
  });

  it('stops at the hop limit', async () => {
    const links = graph([anon('a'), user('u1')], [user('u1'), email('e1')], [email('e1'), anon('b')], [anon('b'), user('u2')], [user('u2'), anon('c')]);
    const [walk] = await walkIdentities([[anon('a')]], links, 4);
    expect(walk?.values('anonymous_id').sort()).toEqual(['a', 'b']);
    expect(walk?.values('user_id').sort()).toEqual(['u1', 'u2']);
    expect(walk?.pathTo(anon('c'))).toBeUndefined();
  });

  it('counts hops for the linked hashes a payload may use', async () => {
    const links = graph([user('u'), email('near')], [email('near'), anon('v')], [anon('v'), email('far')]);
    const [walk] = await walkIdentities([[user('u')]], links);
    expect(walk?.values('email_sha256', 2)).toEqual(['near']);
    expect(walk?.values('email_sha256')).toEqual(['near', 'far']);
  });

  it('asks for links once per hop for all walks of a group', async () => {
    const links = graph([user('u1'), anon('a1')], [user('u2'), anon('a2')], [anon('a2'), email('x')]);
    const walks = await walkIdentities([[user('u1')], [user('u2')], [anon('lonely')]], links, 4);
    expect(walks.map((w) => w.values('anonymous_id'))).toEqual([['a1'], ['a2'], ['lonely']]);
    expect(links.calls).toBeLessThanOrEqual(4);
  });

  it('gives a message seed a path of its own', async () => {
    const [walk] = await walkIdentities([[user('u'), anon('own')]], graph());
    expect(walk?.pathTo(anon('own'))).toEqual([anon('own')]);
  });
});
