import type { TikTokConnectionView } from '../services/tiktok-connection';

/** What the owner does after the callback, with the CLI command and the settings API route for it. */
export function nextStepText(view: TikTokConnectionView): string {
  const ws = view.workspaceId;
  const api = `/admin/workspaces/${ws}/tiktok`;
  switch (view.nextStep) {
    case 'select_advertiser':
      return `Next, choose the primary advertiser: signalbox tiktok advertisers ${ws}, then signalbox tiktok advertiser ${ws} <advertiser-id> (settings API: GET ${api}/advertisers, PUT ${api}/advertiser).`;
    case 'select_pixel':
      return `Next, choose the pixel that receives conversions: signalbox tiktok pixels ${ws}, then signalbox tiktok pixel ${ws} <pixel-code> (settings API: GET ${api}/pixels, PUT ${api}/pixel).`;
    case 'reauthorize':
      return `TikTok no longer accepts this connection: authorize again with signalbox tiktok connect ${ws}.`;
    case null:
      return `The connection is complete: advertiser ${view.advertiserId ?? '-'}, pixel ${view.pixelCode ?? '-'}. Check it with signalbox tiktok status ${ws}.`;
  }
}
