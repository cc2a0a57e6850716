/** `cloudvault status`: for each synced pair, the last pass, what is pending, in conflict, failing or held back. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { resolveConfigDir } from '../config/config-dir.ts';
import { createJournal } from '../journal/journal.ts';
import { openPairDatabase } from '../journal/open-database.ts';
import type { Issue } from '../model.ts';
import { parseCommandArgs, printUsage, usageError } from './args.ts';

const OPTIONS = { 'config-dir': { type: 'string' } } as const;

const ISSUE_HEADINGS: Record<Issue['kind'], string> = {
  conflict: 'In conflict (both versions kept)',
  failing: 'Failing',
  'read-only': 'Read-only (changed here, not uploaded)',
  name: 'Names changed or held back',
  skipped: 'Skipped',
};

/** The lines `status` prints for one pair's journal. */
export function describePair(file: string): string[] {
  const db = openPairDatabase(file);
  try {
    const journal = createJournal(db);
    const pair = journal.pair();
    if (!pair) return [];
    const lines = [`${pair.localDir}  <->  ${pair.server} ${pair.remotePath}  (${pair.email})`];
    const last = journal.lastPass();
    lines.push(
      last
        ? `  Last pass: ${last.finishedAt}, ${last.result}${last.message ? ` (${last.message})` : ''}; ${last.done} done, ${last.pending} pending`
        : '  No pass has finished yet.',
    );
    const issues = journal.issues();
    for (const kind of Object.keys(ISSUE_HEADINGS) as Issue['kind'][]) {
      const ofKind = issues.filter((issue) => issue.kind === kind);
      if (ofKind.length === 0) continue;
      lines.push(`  ${ISSUE_HEADINGS[kind]}: ${ofKind.length}`);
      for (const issue of ofKind) lines.push(`    ${issue.path}: ${issue.message}`);
    }
    if (issues.length === 0 && last?.result === 'synced') lines.push('  Everything is in sync.');
    return lines;
  } finally {
    db.close();
  }
}

/** Runs `cloudvault status`; answers the exit code. */
export async function statusCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(args, OPTIONS);
  if (typeof parsed === 'string') return usageError(parsed);
  if (parsed.values.help) return printUsage();
  if (parsed.positionals.length > 0) return usageError(`status takes no ${parsed.positionals[0]}`);
  const configDir = resolveConfigDir(parsed.values['config-dir']);
  const pairsDir = path.join(configDir, 'pairs');
  const files = (await readdir(pairsDir).catch(() => [] as string[])).filter((name) => name.endsWith('.sqlite')).sort();
  const blocks = files.map((name) => describePair(path.join(pairsDir, name))).filter((lines) => lines.length > 0);
  if (blocks.length === 0) {
    process.stdout.write(`No folder is synced yet (configuration in ${configDir}).\n`);
    return 0;
  }
  process.stdout.write(`${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`);
  return 0;
}
