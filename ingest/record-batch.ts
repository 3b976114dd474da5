import type { Knex } from 'knex';
import type { Repositories } from '../db/repositories';
import type { CreatedConversion, NewConversion } from '../db/repositories/conversions';
import type { NewEvent } from '../db/repositories/events';
import type { Workspace } from '../db/repositories/workspaces';
import { conversionValue } from '../domain/conversion-value';
import { deriveEventId } from '../domain/event-id';
import { isPurchase } from '../domain/event-mapping';
import { sha256Hex } from '../domain/hashing';
import { isAppMessage, type TrackedMessage } from '../domain/message';
import { observe, type IdentityLink } from '../domain/observation';
import { conversionWorkflowId } from '../domain/workflow-id';
import { createGroupCommit } from './group-commit';
import { createKnownLinks, type KnownLinks } from './known-links';
import type { IncomingMessage } from './message-schema';

/** How a batch arrived. */
export interface Receipt {
  receivedAt: Date;
  /** The client's `sentAt`, for clock-skew correction. */
  sentAt?: Date;
  /** Sent with an app key (`ak_`): its events are mobile-app events whatever their context says. */
  fromAppKey?: boolean;
  /**
   * The sender's address when the sender is the user's own device (browser and app keys), for messages that do not
   * carry `context.ip`: TikTok matches on it. A server's address (secret keys) says nothing about the user.
   */
  deviceIp?: string;
}

export interface BatchResult {
  stored: number;
  duplicates: number;
  conversions: CreatedConversion[];
}

/** What one transaction stored: the message IDs it inserted, and the new conversions with their message's ID. */
export interface StoredMessages {
  inserted: Set<string>;
  conversions: (CreatedConversion & { messageId: string })[];
}

export type BatchRecorder = (workspace: Workspace, messages: readonly IncomingMessage[], receipt: Receipt) => Promise<BatchResult>;

/** A message ready to store: its ID settled, its time corrected, and how it arrived. */
export interface Received {
  message: TrackedMessage;
  occurredAt: Date;
  fromAppKey: boolean;
}

/** A message without a `messageId` gets one derived from its content, so a retried request still counts once. */
function withMessageId(message: IncomingMessage): TrackedMessage {
  const messageId = message.messageId ?? `sbx-${sha256Hex(JSON.stringify(message)).slice(0, 32)}`;
  return { ...message, messageId } as TrackedMessage;
}

function withDeviceIp(message: TrackedMessage, deviceIp: string | undefined): TrackedMessage {
  if (deviceIp === undefined || message.context?.ip !== undefined) return message;
  return { ...message, context: { ...message.context, ip: deviceIp } };
}

/** Segment's clock-skew correction: the client's clock is trusted for intervals, the server's for the instant. */
function occurredAt(message: IncomingMessage, receivedAt: Date, sentAt: Date | undefined): Date {
  if (message.timestamp === undefined) return receivedAt;
  const timestamp = new Date(message.timestamp);
  return sentAt === undefined ? timestamp : new Date(receivedAt.getTime() - (sentAt.getTime() - timestamp.getTime()));
}

function toNewEvent({ message, occurredAt: at }: Received): NewEvent {
  return {
    messageId: message.messageId,
    type: message.type,
    eventName: message.event ?? message.name ?? null,
    userId: message.userId ?? null,
    anonymousId: message.anonymousId ?? null,
    occurredAt: at,
    message: message as unknown as Record<string, unknown>,
  };
}

/** One request's messages, each once (a repeated `messageId` within it counts once), ready to store. */
export function receive(messages: readonly IncomingMessage[], { receivedAt, sentAt, fromAppKey = false, deviceIp }: Receipt): Received[] {
  const received = new Map<string, Received>();
  for (const incoming of messages) {
    const message = withDeviceIp(withMessageId(incoming), deviceIp);
    if (!received.has(message.messageId)) received.set(message.messageId, { message, occurredAt: occurredAt(incoming, receivedAt, sentAt), fromAppKey });
  }
  return [...received.values()];
}

/** Stores received messages, of one request or of several committed together (group-commit.ts). */
export function createBatchStore(db: Knex, repos: Repositories, knownLinks: KnownLinks = createKnownLinks()) {
  async function conversionsFor(workspace: Workspace, stored: readonly (Received & { rowId: string })[], trx: Knex): Promise<NewConversion[]> {
    const tracks = stored.filter((r) => r.message.type === 'track' && r.message.event !== undefined);
    const rules = await repos.conversionRules.forEvents(workspace.id, tracks.map((r) => r.message.event as string), trx);
    const conversions = new Map<string, NewConversion>();
    for (const { message, occurredAt: at, rowId, fromAppKey } of tracks) {
      const rule = rules.get(message.event as string);
      if (rule === undefined) continue;
      const eventId = deriveEventId(message, isPurchase(rule.sourceEvent, rule.tiktokEvent));
      const { value, currency } = conversionValue(rule, message.properties);
      const workflowId = conversionWorkflowId(workspace.id, rule.tiktokEvent, eventId);
      if (conversions.has(workflowId)) continue;
      conversions.set(workflowId, {
        eventRowId: rowId,
        messageId: message.messageId,
        sourceEvent: rule.sourceEvent,
        tiktokEvent: rule.tiktokEvent,
        eventId,
        eventTime: at,
        eventSource: fromAppKey || isAppMessage(message) ? 'app' : 'web',
        value: value ?? null,
        currency: currency ?? null,
        workflowId,
      });
    }
    return [...conversions.values()];
  }

  /**
   * Stores messages in one transaction: new events (a `messageId` stored before, or earlier in `received`, is skipped),
   * visitor profiles, clicks and identity links, and a pending conversion for every event a conversion rule maps.
   */
  return async function store(workspace: Workspace, received: readonly Received[]): Promise<StoredMessages> {
    const byId = new Map<string, Received>();
    for (const r of received) if (!byId.has(r.message.messageId)) byId.set(r.message.messageId, r);
    const first = [...byId.values()];
    let links: IdentityLink[] = [];
    const result = await db.transaction(async (trx) => {
      const rowIds = await repos.events.insertNew(workspace.id, first.map(toNewEvent), trx);
      const stored = first.flatMap((r) => {
        const rowId = rowIds.get(r.message.messageId);
        return rowId === undefined ? [] : [{ ...r, rowId }];
      });
      const observations = stored.map((r) => observe(r.message, r.occurredAt, workspace.defaultPhoneRegion));
      links = knownLinks.unknown(workspace.id, observations.flatMap((o) => o.links));
      await repos.profiles.record(
        workspace.id,
        observations.flatMap((o) => (o.sighting ? [o.sighting] : [])),
        links,
        trx,
      );
      const candidates = await conversionsFor(workspace, stored, trx);
      const created = await repos.conversions.insertNew(workspace.id, candidates, trx);
      const messageOf = new Map(candidates.map((c) => [c.workflowId, c.messageId]));
      return {
        inserted: new Set(rowIds.keys()),
        conversions: created.map((c) => ({ ...c, messageId: messageOf.get(c.workflowId) as string })),
      };
    });
    knownLinks.remember(workspace.id, links);
    return result;
  };
}

export type BatchStore = ReturnType<typeof createBatchStore>;

/** What the ingest API stores batches with: concurrent requests of a workspace share transactions (group-commit.ts). */
export function createBatchRecorder(db: Knex, repos: Repositories, knownLinks?: KnownLinks): BatchRecorder {
  return createGroupCommit(createBatchStore(db, repos, knownLinks), receive);
}
