/** `cloudvault sync LOCAL_DIR`: one pass (--once, --dry-run) or keeps the pair in sync until stopped. */
import { resolveConfigDir } from '../config/config-dir.ts';
import { loadCredentials } from '../config/credentials.ts';
import { runContinuous } from '../engine/continuous.ts';
import { normalizeRemotePath, openPair } from '../engine/open-pair.ts';
import { runPass, type PassResult } from '../engine/sync-pass.ts';
import { planPass } from '../reconcile/plan-pass.ts';
import { parseCommandArgs, printUsage, usageError } from './args.ts';
import { createProgress } from './progress.ts';

const OPTIONS = {
  remote: { type: 'string' },
  once: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'allow-mass-delete': { type: 'boolean' },
  'config-dir': { type: 'string' },
} as const;

/** The last line of a pass, and its exit code. */
export function passVerdict(result: PassResult): { line: string; exitCode: number; toStderr: boolean } {
  switch (result.result) {
    case 'synced':
      return {
        line: result.done > 0 ? `In sync: ${result.done} change${result.done === 1 ? '' : 's'} made.` : 'In sync: nothing to do.',
        exitCode: 0,
        toStderr: false,
      };
    case 'dry-run':
      return { line: `Dry run: ${result.message}; nothing was changed.`, exitCode: 0, toStderr: false };
    case 'mass-delete':
      return { line: result.message, exitCode: 1, toStderr: true };
    default:
      return { line: `Not in sync: ${result.message} (${result.pending} pending). See cloudvault status.`, exitCode: 1, toStderr: true };
  }
}

/** Runs `cloudvault sync`; answers the exit code. */
export async function syncCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (typeof parsed === 'string') return usageError(parsed);
  if (parsed.values.help) return printUsage();
  if (parsed.positionals.length !== 1)
    return usageError(parsed.positionals.length === 0 ? 'sync needs LOCAL_DIR' : 'sync takes one LOCAL_DIR');
  const values = parsed.values;
  const configDir = resolveConfigDir(values['config-dir']);
  const credentials = await loadCredentials(configDir);
  if ('error' in credentials) {
    process.stderr.write(`${credentials.error}\n`);
    return 1;
  }
  const dryRun = values['dry-run'] ?? false;
  const now = () => new Date();
  const pair = await openPair({
    configDir,
    credentials,
    localDir: parsed.positionals[0] as string,
    remotePath: normalizeRemotePath(values.remote ?? '/'),
    dryRun,
    now,
  });
  try {
    const passOptions = {
      deviceName: credentials.device,
      now,
      dryRun,
      allowMassDelete: values['allow-mass-delete'] ?? false,
      caseInsensitiveDisk: pair.tree.caseInsensitive,
    };
    const deps = { local: pair.local, remote: pair.remote, journal: pair.journal, plan: planPass, progress: createProgress() };
    if (dryRun || values.once) {
      const verdict = passVerdict(await runPass(deps, passOptions));
      (verdict.toStderr ? process.stderr : process.stdout).write(`${verdict.line}\n`);
      return verdict.exitCode;
    }
    return await runContinuous(deps, passOptions, {
      api: pair.api,
      db: pair.db,
      root: pair.tree.root,
      describe: (result) => passVerdict(result).line,
    });
  } finally {
    pair.close();
  }
}
