/** Shapes of the console API's answers (api/console/routes/*). */

export type Role = 'owner' | 'editor' | 'viewer';

export interface Me {
  user: { id: string; email: string; name: string };
  csrfToken: string;
  sessionId: string;
  workspaces: { workspaceId: string; workspaceName: string; role: Role }[];
}

export interface Workspace {
  id: string;
  name: string;
  attributionWindowDays: number;
  testMode: boolean;
  testEventCode: string | null;
  defaultPhoneRegion: string;
  allowedOrigins: string[];
  matchWithoutClick: boolean;
  consentRequired: boolean;
  /** One unit of each currency in the advertiser's currency, as exact decimal text. */
  exchangeRates: Record<string, string>;
  eventRetentionDays: number;
}

export interface WorkspaceAnswer {
  workspace: Workspace;
  role: Role;
  tiktok: { status: string; advertiserId: string | null; advertiserName: string | null; pixelCode: string | null; pixelName: string | null; timeZone: string | null; currency: string | null } | null;
}

export interface Help {
  label: string;
  explanation: string;
  fix: string;
}

export type ConversionStatus = 'pending' | 'delivered' | 'skipped' | 'failed';

export interface ConversionSummary {
  id: string;
  status: ConversionStatus;
  reason: string | null;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  /** Which of the TikTok events sent for its message it is; `of` > 1 when its rule also sends it as other events. */
  messageEvent: { position: number; of: number };
  eventTime: string;
  value: number | null;
  currency: string | null;
  testMode: boolean;
  /** Delivered with no click inside the attribution window: TikTok matched it on its other keys. */
  sentWithoutClick: boolean;
  createdAt: string;
  completedAt: string | null;
  tiktokCode: number | null;
  clickAnonymousId: string | null;
}
