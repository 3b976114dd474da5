import { Command, CommanderError } from 'commander';
import { registerAlertCommands } from './commands/alerts';
import { registerConversionCommands } from './commands/conversions';
import { registerDiagnosticsCommands } from './commands/diagnostics';
import { registerErasureCommands } from './commands/erasures';
import { registerEventCommands } from './commands/events';
import { registerHealthCommand } from './commands/health';
import { registerImportCommand } from './commands/imports';
import { registerKeyCommands } from './commands/keys';
import { registerMatchKeyCommands } from './commands/match-keys';
import { registerReportCommands } from './commands/reports';
import { registerRuleCommands } from './commands/rules';
import { registerSettingsCommands } from './commands/settings';
import { registerSourceCommands } from './commands/sources';
import { registerShopifyCommands } from './commands/shopify';
import { registerTikTokCommands } from './commands/tiktok';
import { registerUserCommands } from './commands/users';
import { registerWorkspaceCommands } from './commands/workspaces';
import { ApiError, CliError, ExitStatus } from './errors';
import { registerOperatorCommands } from './operator/commands';
import type { CliIo } from './session';

function addJsonToLeaves(command: Command): void {
  if (command.commands.length === 0) command.option('--json', 'print the raw JSON answer');
  command.commands.forEach(addJsonToLeaves);
}

export function createProgram(io: CliIo): Command {
  const program = new Command('signalbox')
    .description('Operate Signalbox through its settings API; migrate, temporal setup and secrets rotate speak to PostgreSQL and Temporal directly')
    .option('--url <url>', 'server URL (else SIGNALBOX_URL, else the dev stack: SIGNALBOX_DATA_DIR, else .signalbox upwards)')
    .option('--token <adminToken>', "admin token (else SIGNALBOX_ADMIN_TOKEN, else the dev stack's)")
    .option('--json', 'print raw JSON answers, for scripts')
    .option('--verbose', 'say which server is used and where its address came from')
    // Options before the subcommand belong to signalbox itself, so `tiktok set --token` can mean the TikTok token.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) });

  registerWorkspaceCommands(program, io);
  registerSettingsCommands(program, io);
  registerKeyCommands(program, io);
  registerSourceCommands(program, io);
  registerRuleCommands(program, io);
  registerShopifyCommands(program, io);
  registerTikTokCommands(program, io);
  registerReportCommands(program, io);
  registerConversionCommands(program, io);
  registerUserCommands(program, io);
  registerEventCommands(program, io);
  registerImportCommand(program, io);
  registerMatchKeyCommands(program, io);
  registerDiagnosticsCommands(program, io);
  registerErasureCommands(program, io);
  registerAlertCommands(program, io);
  registerHealthCommand(program, io);
  program.commands.forEach(addJsonToLeaves);
  registerOperatorCommands(program, io);
  return program;
}

/** Runs one command line (without `node` and the script) and returns the exit code; never calls process.exit. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  try {
    await createProgram(io).parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ExitStatus) return error.code;
    if (error instanceof ApiError) {
      if (error.issues.length > 1) io.err(['Error:', ...error.issues.map((issue) => `  - ${issue}`)].join('\n'));
      else io.err(`Error: ${error.message}`);
      return 1;
    }
    if (error instanceof CliError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
