/** A problem the user can fix (missing URL, bad flags); printed without a stack trace. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The server answered with an error body `{ error, message, issues? }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Ends a command with this exit code after it printed its answer (e.g. `migrate --status` with migrations pending). */
export class ExitStatus extends Error {
  constructor(readonly code: number) {
    super(`exit status ${code}`);
    this.name = 'ExitStatus';
  }
}
