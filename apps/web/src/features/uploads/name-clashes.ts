import type { NameConflict } from '@cloudvault/contract/files';
import { nameKey } from '@cloudvault/contract/validation';

/**
 * What the person chose for a name the folder already holds (docs/decisions/0050-name-clashes.md):
 * the server's `replace` or `keep-both`, or `skip` (nothing is sent).
 */
export type ClashChoice = Exclude<NameConflict, 'fail'> | 'skip';

/** One name the folder already holds, as the clash dialog asks about it. */
export interface NameClash {
  name: string;
  /** Where it clashes, as the person sees it ("My Files", "Docs"). */
  folderName: string;
  /** Folders are never replaced: only Keep both or Skip. */
  canReplace: boolean;
}

/** The dialog's answer: a choice, and whether it goes for every clash left in the batch. */
export interface ClashAnswer {
  choice: ClashChoice;
  applyToAll: boolean;
}

/** Asks about one clash; `left` counts it and those after it (the "Apply to all N conflicts" figure). */
export type AskClash = (clash: NameClash, left: number) => Promise<ClashAnswer>;

/** The indexes of `names` that the folder's `existing` names already hold, by the server's rule for the same name. */
export function clashingIndexes(names: readonly string[], existing: Iterable<string>): number[] {
  const taken = new Set(Array.from(existing, (name) => nameKey(name)));
  return names.flatMap((name, index) => (taken.has(nameKey(name)) ? [index] : []));
}

/**
 * Asks about each clash in turn, until an answer applies to all the rest: one question per
 * clash, or fewer. Replace for all cannot apply to a folder, so a folder after it is asked
 * about. Answers each clash's choice, in order.
 */
export async function resolveClashes(clashes: readonly NameClash[], ask: AskClash): Promise<ClashChoice[]> {
  const choices: ClashChoice[] = [];
  let forAll: ClashChoice | null = null;
  for (const [index, clash] of clashes.entries()) {
    if (forAll !== null && (forAll !== 'replace' || clash.canReplace)) {
      choices.push(forAll);
      continue;
    }
    const answer = await ask(clash, clashes.length - index);
    if (answer.applyToAll) forAll = answer.choice;
    choices.push(answer.choice === 'replace' && !clash.canReplace ? 'keep-both' : answer.choice);
  }
  return choices;
}
