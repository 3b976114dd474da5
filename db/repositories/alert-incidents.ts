import type { Knex } from 'knex';
import type { AlertCondition } from '../../domain/alerts';

export type { AlertCondition };
export type AlertChannel = 'email' | 'webhook';

export interface AlertNotification {
  channel: AlertChannel;
  attempts: number;
  sentAt: Date | null;
  lastError: string | null;
}

export interface AlertIncident {
  id: string;
  workspaceId: string;
  condition: AlertCondition;
  detail: string;
  openedAt: Date;
  closedAt: Date | null;
  notifications: AlertNotification[];
}

/** A notification claimed for sending, with what it tells. */
export interface ClaimedNotification {
  incidentId: string;
  channel: AlertChannel;
  workspaceId: string;
  condition: AlertCondition;
  detail: string;
  openedAt: Date;
}

interface IncidentRow {
  id: string;
  workspace_id: string;
  condition: AlertCondition;
  detail: string;
  opened_at: Date;
  closed_at: Date | null;
}

interface NotificationRow {
  incident_id: string;
  channel: AlertChannel;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
}

/** A claim lasts this long: a sender that died mid-send leaves the notification to the next evaluation after it. */
const CLAIM_SECONDS = 120;
/** Notifications of incidents older than this are no longer tried. */
const GIVE_UP_AFTER_HOURS = 24;

/**
 * Incidents: at most one open per workspace and condition (a unique partial index, so concurrent evaluators open it
 * once), each with one notification per channel, claimed before sending (so it is sent once).
 */
export function createAlertIncidentRepository(db: Knex) {
  return {
    /** Opens the condition's incident unless one is open; its notifications are those of `channels`. True when opened. */
    async open(workspaceId: string, condition: AlertCondition, detail: string, channels: readonly AlertChannel[], executor: Knex = db): Promise<boolean> {
      const { rows } = await executor.raw<{ rows: { id: string }[] }>(
        `WITH opened AS (
           INSERT INTO alert_incidents (workspace_id, condition, detail) VALUES (?, ?, ?)
           ON CONFLICT (workspace_id, condition) WHERE closed_at IS NULL DO NOTHING
           RETURNING id
         ), notifications AS (
           INSERT INTO alert_notifications (incident_id, channel) SELECT opened.id, channel FROM opened, unnest(?::text[]) AS channel
         )
         SELECT id FROM opened`,
        [workspaceId, condition, detail, [...channels]],
      );
      return rows.length > 0;
    },

    /** Closes the condition's open incident; true when there was one. */
    async close(workspaceId: string, condition: AlertCondition, executor: Knex = db): Promise<boolean> {
      return (await executor('alert_incidents').where({ workspace_id: workspaceId, condition }).whereNull('closed_at').update({ closed_at: executor.fn.now() })) > 0;
    },

    async openConditions(workspaceId: string, executor: Knex = db): Promise<AlertCondition[]> {
      const rows = await executor('alert_incidents').where({ workspace_id: workspaceId }).whereNull('closed_at').select<{ condition: AlertCondition }[]>('condition');
      return rows.map((row) => row.condition);
    },

    /** Claims the workspace's notifications not sent yet and not claimed by another sender. */
    async claimUnsent(workspaceId: string, executor: Knex = db): Promise<ClaimedNotification[]> {
      const { rows } = await executor.raw<{ rows: { incident_id: string; channel: AlertChannel; workspace_id: string; condition: AlertCondition; detail: string; opened_at: Date }[] }>(
        `UPDATE alert_notifications n
         SET claimed_until = now() + make_interval(secs => ?), attempts = n.attempts + 1
         FROM alert_incidents i
         WHERE n.incident_id = i.id AND i.workspace_id = ? AND n.sent_at IS NULL
           AND (n.claimed_until IS NULL OR n.claimed_until < now())
           AND i.opened_at > now() - make_interval(hours => ?)
         RETURNING n.incident_id, n.channel, i.workspace_id, i.condition, i.detail, i.opened_at`,
        [CLAIM_SECONDS, workspaceId, GIVE_UP_AFTER_HOURS],
      );
      return rows.map((row) => ({ incidentId: String(row.incident_id), channel: row.channel, workspaceId: row.workspace_id, condition: row.condition, detail: row.detail, openedAt: row.opened_at }));
    },

    async recordOutcome(incidentId: string, channel: AlertChannel, error: string | null, executor: Knex = db): Promise<void> {
      await executor('alert_notifications')
        .where({ incident_id: incidentId, channel })
        .update(error === null ? { sent_at: executor.fn.now(), last_error: null, claimed_until: null } : { last_error: error.slice(0, 500), claimed_until: null });
    },

    /** The workspace's incidents, newest first, with how each channel fared. */
    async list(workspaceId: string, limit: number, executor: Knex = db): Promise<AlertIncident[]> {
      const incidents = (await executor('alert_incidents').where({ workspace_id: workspaceId }).orderBy('id', 'desc').limit(limit)) as IncidentRow[];
      const notifications = (await executor('alert_notifications')
        .whereIn(
          'incident_id',
          incidents.map((row) => row.id),
        )
        .orderBy('channel')) as NotificationRow[];
      return incidents.map((row) => ({
        id: String(row.id),
        workspaceId: row.workspace_id,
        condition: row.condition,
        detail: row.detail,
        openedAt: row.opened_at,
        closedAt: row.closed_at,
        notifications: notifications
          .filter((n) => String(n.incident_id) === String(row.id))
          .map((n) => ({ channel: n.channel, attempts: n.attempts, sentAt: n.sent_at, lastError: n.last_error })),
      }));
    },
  };
}

export type AlertIncidentRepository = ReturnType<typeof createAlertIncidentRepository>;
