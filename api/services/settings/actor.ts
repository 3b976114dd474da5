/** Who made a change, as the change log records it: the operator token, or a console account. */
export type Actor = 'operator' | `user:${string}`;

export const userActor = (userId: string): Actor => `user:${userId}`;
