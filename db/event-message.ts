/**
 * How `events.message` is stored (issue 30): without the fields its own columns hold, which put them back when it is
 * read. A message of a page view stores about 160 bytes less (its `messageId`, `type`, `event` or `name`, `userId` and
 * `anonymousId` were each held twice). A field that is null stays in the body: its column cannot tell null from absent.
 * Rows stored before, with the whole message, read the same.
 */

/** The fields of a message that its columns hold. */
interface ColumnFields {
  messageId: string;
  type: string;
}

/** The columns of a stored event that `fullMessage` puts back into its body. */
export interface MessageColumns {
  message_id: string;
  type: string;
  event_name: string | null;
  user_id: string | null;
  anonymous_id: string | null;
  /** Set when retention or an erasure stripped the message: its identifiers are not put back. */
  stripped_at?: Date | null;
}

/** The column of the event name: `event` for track, `name` for page and screen (the message check allows no other). */
const nameField = (type: string) => (type === 'track' ? 'event' : 'name');

/** The message's JSON as `events.message` stores it. */
export function messageBody(message: ColumnFields): string {
  const body: Record<string, unknown> = { ...message };
  delete body.messageId;
  delete body.type;
  for (const field of [nameField(message.type), 'userId', 'anonymousId']) {
    if (body[field] !== null) delete body[field];
  }
  return JSON.stringify(body);
}

/** The message as it was received: the stored body with the fields its columns hold. */
export function fullMessage(row: MessageColumns & { message: Record<string, unknown> }): Record<string, unknown> {
  const identified = !row.stripped_at;
  return {
    messageId: row.message_id,
    type: row.type,
    ...(row.event_name !== null && { [nameField(row.type)]: row.event_name }),
    ...(identified && row.user_id !== null && { userId: row.user_id }),
    ...(identified && row.anonymous_id !== null && { anonymousId: row.anonymous_id }),
    ...row.message,
  };
}

/** The row with its whole message. */
export function withFullMessage<R extends MessageColumns & { message: Record<string, unknown> }>(row: R): R {
  return { ...row, message: fullMessage(row) };
}
