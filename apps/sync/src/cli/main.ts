/**
 * The cloudvault command: parses the arguments and runs one command. Exit codes: 0 done,
 * 1 failed (the reason on standard error), 2 wrong usage.
 */
import { printUsage, usageError } from './args.ts';
import { loginCommand } from './login-command.ts';
import { statusCommand } from './status-command.ts';
import { syncCommand } from './sync-command.ts';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  login: loginCommand,
  sync: syncCommand,
  status: statusCommand,
};

/** Runs the command `args` names and answers its exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === '--help' || name === '-h' || name === 'help') {
    return printUsage();
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) return usageError(name === undefined ? 'No command given.' : `Unknown command: ${name}`);
  try {
    return await command(rest);
  } catch (error) {
    // A fault no command foresaw still ends with a readable line and exit code 1.
    process.stderr.write(`cloudvault ${name}: ${(error as Error).message}\n`);
    if (process.env.CLOUDVAULT_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
    return 1;
  }
}
