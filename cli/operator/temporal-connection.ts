import { Connection } from '@temporalio/client';
import { temporalConnectionOptions, type TemporalSettings } from '../../temporal/connection';
import { CliError } from '../errors';

/** A connection to Temporal with the services' settings; one that does not answer is the operator's to fix. */
export async function connectToTemporal(settings: TemporalSettings): Promise<Connection> {
  const options = temporalConnectionOptions(settings);
  try {
    return await Connection.connect(options);
  } catch (error) {
    throw new CliError(`Temporal at ${options.address} (TEMPORAL_ADDRESS) did not answer: ${(error as Error).message}`);
  }
}
