import { randomBytes } from 'node:crypto';
import type { FakeTikTokApp } from './seed';

/** An `auth_code` is valid for one hour and one exchange (§8 "auth_code lifetime" [V1] GO; 40110 on reuse [V1] AE). */
const AUTH_CODE_LIFETIME_MS = 60 * 60 * 1000;

export interface AuthCodeGrant {
  appId: string;
  advertiserIds: string[];
  scopes: string[];
}

interface IssuedCode extends AuthCodeGrant {
  issuedAtMs: number;
  used: boolean;
}

export type CodeRedemption = { ok: true; grant: AuthCodeGrant } | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'other_app' };

/** Developer apps and the authorization codes the fake's authorization page (or a test) has issued. */
export class OAuthStore {
  private readonly apps = new Map<string, string>();
  private readonly codes = new Map<string, IssuedCode>();

  reset(apps: readonly FakeTikTokApp[]): void {
    this.apps.clear();
    this.codes.clear();
    for (const app of apps) this.apps.set(app.appId, app.secret);
  }

  hasApp(appId: string): boolean {
    return this.apps.has(appId);
  }

  credentialsMatch(appId: string, secret: string): boolean {
    return this.apps.get(appId) === secret;
  }

  issueCode(grant: AuthCodeGrant, nowMs: number): string {
    const code = randomBytes(20).toString('hex');
    this.codes.set(code, { ...grant, issuedAtMs: nowMs, used: false });
    return code;
  }

  redeem(code: string, appId: string, nowMs: number): CodeRedemption {
    const issued = this.codes.get(code);
    if (issued === undefined) return { ok: false, reason: 'unknown' };
    if (issued.used) return { ok: false, reason: 'used' };
    if (nowMs - issued.issuedAtMs > AUTH_CODE_LIFETIME_MS) return { ok: false, reason: 'expired' };
    if (issued.appId !== appId) return { ok: false, reason: 'other_app' };
    issued.used = true;
    return { ok: true, grant: { appId: issued.appId, advertiserIds: issued.advertiserIds, scopes: issued.scopes } };
  }
}
