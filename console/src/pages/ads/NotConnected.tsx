import { Link } from 'react-router';

/** Ad performance before there are figures to pull: TikTok not connected, or no advertiser chosen; where to do it. */
export function NotConnected({ ws, connected }: { ws: string; connected: boolean }) {
  return (
    <>
      <h1>Ad performance</h1>
      <div className="notice" role="status">
        <p>
          {connected
            ? 'No TikTok advertiser is chosen yet: figures are pulled per advertiser, every hour once one is chosen.'
            : 'This workspace is not connected to TikTok, so there are no ad figures to show: they are pulled from TikTok every hour once it is connected and an advertiser is chosen.'}
        </p>
        <p>
          <Link to={`/w/${ws}/sources#tiktok`}>{connected ? 'Choose the advertiser on Sources' : 'Connect TikTok on Sources'}</Link>
        </p>
      </div>
    </>
  );
}
