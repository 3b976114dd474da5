import { z } from 'zod';
import { periodFields } from './console/fields';
import { sourceFilterField } from './fields';

const daysMessage = 'must be a whole number of days from 1 to 90';

/** The settings API's diagnostics: the last `days` days. */
export const diagnosticsDaysQuery = z.strictObject({
  days: z.coerce.number({ error: daysMessage }).int(daysMessage).min(1, daysMessage).max(90, daysMessage).default(7),
  source: sourceFilterField,
});

/** The console's diagnostics: whole days in the viewer's time zone, as its other pages. */
export const diagnosticsPeriodQuery = z.strictObject({ ...periodFields, source: sourceFilterField });
