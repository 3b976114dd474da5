import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import type { AdFigures } from '../../../../contract/ad-report';

/** Why a ROAS is a dash rather than a number, for the tooltip and the note under the table. */
export const NO_TIKTOK_ROAS = 'TikTok attributed no conversion here, so its ROAS says nothing yet (it would read 0).';
export const NO_SIGNALBOX_ROAS = 'Signalbox delivered no conversion with a value here, or its values are in currencies without an exchange rate.';

const ratio = (value: string) => Number(value).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A dash that explains itself on hover or focus. */
function Unknown({ why }: { why: string }) {
  return (
    <TooltipTrigger delay={200}>
      <Button className="unknown" aria-label={`No figure: ${why}`}>
        —
      </Button>
      <Tooltip className="tooltip">{why}</Tooltip>
    </TooltipTrigger>
  );
}

/** TikTok's ROAS, a dash while TikTok reports no conversion (its 0 would read as a loss). */
export function TikTokRoas({ figures }: { figures: AdFigures }) {
  if (!figures.conversions || figures.roas === null) return <Unknown why={NO_TIKTOK_ROAS} />;
  return <>{ratio(figures.roas)}</>;
}

/** Signalbox's ROAS: what it delivered, in value, per unit of spend. */
export function SignalboxRoas({ figures }: { figures: AdFigures }) {
  if (figures.deliveredRoas === null) return <Unknown why={NO_SIGNALBOX_ROAS} />;
  return <>{ratio(figures.deliveredRoas)}</>;
}
