import type { UserRepository } from '../../db/repositories/users';

/** Who did something, as a person reads it: the account's name and email, never its `usr_` ID. */
export type ActorName = (actor: string) => string;

/**
 * Names for the actors of change-log entries and conversion histories (`user:usr_…`, `operator`, `system`,
 * `shopify:<shop>` for its privacy webhooks), with one lookup per account.
 */
export async function actorNames(users: Pick<UserRepository, 'find'>, actors: Iterable<string>): Promise<ActorName> {
  const userIds = [...new Set([...actors].filter((actor) => actor.startsWith('user:')).map((actor) => actor.slice(5)))];
  const people = new Map((await Promise.all(userIds.map((id) => users.find(id)))).flatMap((user) => (user ? [[user.id, user.name ? `${user.name} (${user.email})` : user.email] as const] : [])));
  return (actor) => {
    if (actor.startsWith('user:')) return people.get(actor.slice(5)) ?? 'a removed account';
    if (actor === 'operator') return 'an operator (settings API)';
    if (actor === 'system') return 'Signalbox';
    if (actor.startsWith('shopify:')) return `Shopify, for the shop ${actor.slice('shopify:'.length)}`;
    return actor;
  };
}
