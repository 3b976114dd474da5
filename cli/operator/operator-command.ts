import { ConfigError } from '../../config/env';
import { CliError } from '../errors';
import type { CliIo } from '../session';

/** A missing or malformed setting is the operator's to fix: printed as its message (naming the variable), no stack. */
export function operatorCommand<Options>(handler: (io: CliIo, options: Options) => Promise<void>) {
  return async (io: CliIo, options: Options): Promise<void> => {
    try {
      await handler(io, options);
    } catch (error) {
      throw error instanceof ConfigError ? new CliError(error.message) : error;
    }
  };
}
