import type { Repositories } from '../../db/repositories';
import { messageBody } from '../../db/event-message';
import type { ConversionRule } from '../../db/repositories/conversion-rules';
import type { CreatedConversion } from '../../db/repositories/conversions';
import { isStoredBefore, type NewEvent, type Profiles } from '../../db/repositories/ingest-writes';
import type { Workspace } from '../../db/repositories/workspaces';
import { sha256Hex } from '../../domain/hashing';
import type { TrackedMessage } from '../../domain/message';
import { observe } from '../../domain/observation';
import { conversionKey, conversionsFor } from '../../domain/rule-conversions';
import { correctClockSkew, parseTimestamp } from '../../sdk/src/rules/index.js';
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
  /** Messages not stored because their `messageId` already was (a retried request). */
  duplicates: number;
  /** Stored events that repeat an existing conversion's order_id / event_id: no new conversion was made for them. */
  repeatedConversions: number;
  conversions: CreatedConversion[];
}

/**
 * What one transaction stored, by message ID: the events it inserted, those that repeat an existing conversion, and
 * the new conversions.
 */
export interface StoredMessages {
  inserted: Set<string>;
  repeated: Set<string>;
  conversions: (CreatedConversion & { messageId: string })[];
}

/**
 * Resolves after the commit that holds the messages. When `signal` aborts before their transaction has begun, they
 * are not stored and the promise rejects with its reason; once it has begun, the promise settles with its outcome.
 */
export type BatchRecorder = (workspace: Workspace, messages: readonly IncomingMessage[], receipt: Receipt, signal?: AbortSignal) => Promise<BatchResult>;

/** A message ready to store: its ID settled, its time corrected, and how it arrived. */
export interface Received {
  message: TrackedMessage;
  occurredAt: Date;
  fromAppKey: boolean;
}

/** A message without a `messageId` gets one derived from its content, so a retried request still counts once. */
function withMessageId(message: IncomingMessage): TrackedMessage {
  if (message.messageId !== undefined) return message as TrackedMessage;
  return { ...message, messageId: `sbx-${sha256Hex(JSON.stringify(message)).slice(0, 32)}` } as TrackedMessage;
}

function withDeviceIp(message: TrackedMessage, deviceIp: string | undefined): TrackedMessage {
  if (deviceIp === undefined || message.context?.ip !== undefined) return message;
  return { ...message, context: { ...message.context, ip: deviceIp } };
}

/** The message's time corrected for the sender's clock (validation checked that it stays storable). */
function occurredAt(message: IncomingMessage, receivedAt: Date, sentAt: Date | undefined): Date {
  if (message.timestamp === undefined) return receivedAt;
  return new Date(correctClockSkew(parseTimestamp(message.timestamp) as number, sentAt?.getTime(), receivedAt.getTime()));
}

export function toNewEvent({ message, occurredAt: at }: Received): NewEvent {
  return {
    messageId: message.messageId,
    type: message.type,
    eventName: message.event ?? message.name ?? null,
    userId: message.userId ?? null,
    anonymousId: message.anonymousId ?? null,
    occurredAt: at,
    messageJson: messageBody(message),
  };
}

/** One request's messages, each once (a repeated `messageId` within it counts once), ready to store. */
export function receive(messages: readonly IncomingMessage[], { receivedAt, sentAt, fromAppKey = false, deviceIp }: Receipt): Received[] {
  const received = new Map<string, Received>();
  for (const incoming of messages) {
    const message = withDeviceIp(withMessageId(incoming), deviceIp);
    if (received.has(message.messageId)) continue;
    received.set(message.messageId, { message, occurredAt: occurredAt(incoming, receivedAt, sentAt), fromAppKey });
  }
  return [...received.values()];
}

/** The visitor sightings and the identity links (those not committed lately) of these messages. */
export function profilesOf(workspace: Pick<Workspace, 'id' | 'defaultPhoneRegion'>, received: readonly Received[], knownLinks: KnownLinks): Profiles {
  const observations = received.map((r) => observe(r.message, r.occurredAt, workspace.defaultPhoneRegion));
  return {
    sightings: observations.flatMap((o) => (o.sighting ? [o.sighting] : [])),
    links: knownLinks.unknown(workspace.id, observations.flatMap((o) => o.links)),
  };
}

/**
 * Event names a conversion rule mapped when a workspace last sent them: a group holding one goes straight to a
 * transaction. Only a hint of which way to store a group; both ways read the rules themselves.
 */
function createMappedNames() {
  const names = new Map<string, Set<string>>();
  return {
    anyOf: (workspaceId: string, eventNames: readonly string[]) => eventNames.some((name) => names.get(workspaceId)?.has(name) === true),
    learn(workspaceId: string, eventNames: readonly string[], rules: ReadonlyMap<string, ConversionRule>): void {
      const mapped = names.get(workspaceId) ?? new Set<string>();
      for (const name of eventNames) {
        if (rules.has(name)) mapped.add(name);
        else mapped.delete(name);
      }
      names.set(workspaceId, mapped);
    },
  };
}

/** Stores received messages, of one request or of several committed together (group-commit.ts). */
export function createBatchStore(repos: Repositories, knownLinks: KnownLinks = createKnownLinks()) {
  const mappedNames = createMappedNames();

  /**
   * Stores messages: new events (a `messageId` stored before, or earlier in `received`, is skipped), visitor profiles,
   * clicks and identity links, and a pending conversion for every event a conversion rule maps; an event that repeats
   * an existing conversion's order_id / event_id is marked as its duplicate. Events no rule maps, all new (the usual
   * group), go in one statement; the others in one transaction.
   */
  return async function store(workspace: Workspace, received: readonly Received[]): Promise<StoredMessages> {
    const byId = new Map<string, Received>();
    for (const r of received) if (!byId.has(r.message.messageId)) byId.set(r.message.messageId, r);
    const first = [...byId.values()];
    const events = first.map(toNewEvent);
    const eventNames = [...new Set(first.flatMap((r) => (r.message.type === 'track' && r.message.event !== undefined ? [r.message.event] : [])))];
    let profiles = profilesOf(workspace, first, knownLinks);

    if (!mappedNames.anyOf(workspace.id, eventNames)) {
      try {
        const { rules, storedBefore } = await repos.ingestWrites.storeUnmapped(workspace.id, events, profiles, eventNames);
        if (rules.size === 0) {
          knownLinks.remember(workspace.id, profiles.links);
          return { inserted: new Set([...byId.keys()].filter((id) => !storedBefore.has(id))), repeated: new Set(), conversions: [] };
        }
      } catch (error) {
        if (!isStoredBefore(error)) throw error;
      }
    }

    // Some event is mapped to a conversion, or was stored before (a retried request).
    const result = await repos.ingestWrites.transaction(async (trx) => {
      const { rowIds, receivedOn, rules } = await trx.storeEvents(workspace.id, events, eventNames);
      mappedNames.learn(workspace.id, eventNames, rules);
      const inserted = first.filter((r) => rowIds.has(r.message.messageId));
      profiles = profilesOf(workspace, inserted, knownLinks);
      await trx.recordProfiles(workspace.id, profiles);
      const stored = inserted.map((r) => ({ ...r, rowId: rowIds.get(r.message.messageId) as string, receivedOn }));
      const candidates = conversionsFor(workspace.id, stored, rules);
      const { created, repeated } = await trx.recordConversions(workspace.id, candidates);
      const messageOf = new Map(candidates.candidates.map((c) => [conversionKey(c), c.messageId]));
      const messageOfRow = new Map(stored.map((r) => [r.rowId, r.message.messageId]));
      return {
        inserted: new Set(rowIds.keys()),
        repeated: new Set(repeated.map((rowId) => messageOfRow.get(rowId) as string)),
        conversions: created.map((c) => ({ ...c, messageId: messageOf.get(conversionKey(c)) as string })),
      };
    });
    knownLinks.remember(workspace.id, profiles.links);
    return result;
  };
}

export type BatchStore = ReturnType<typeof createBatchStore>;

/** What the ingest API stores batches with: concurrent requests of a workspace share transactions (group-commit.ts). */
export function createBatchRecorder(repos: Repositories, knownLinks?: KnownLinks): BatchRecorder {
  return createGroupCommit(createBatchStore(repos, knownLinks), receive);
}
