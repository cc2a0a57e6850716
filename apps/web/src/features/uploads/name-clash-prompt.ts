import type { ClashAnswer, NameClash } from './name-clashes';

/** A question waiting for the clash dialog, and how to give its answer back. */
export interface PendingClash {
  clash: NameClash;
  /** This clash and those after it in its batch: the "Apply to all N conflicts" figure. */
  left: number;
  answer(answer: ClashAnswer): void;
}

let pending: readonly PendingClash[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/**
 * The questions for the one clash dialog (NameClashHost), in the order asked: uploads and
 * moves running at once wait their turn, so the person answers one question at a time.
 * Outside React, as the upload queue is, so any batch can ask from anywhere.
 */
export const clashPrompt = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The question shown now, or null. */
  current: (): PendingClash | null => pending[0] ?? null,
};

/** Asks the person about one clash (see resolveClashes); resolves with their answer. */
export function askNameClash(clash: NameClash, left: number): Promise<ClashAnswer> {
  return new Promise((resolve) => {
    const question: PendingClash = {
      clash,
      left,
      answer: (answer) => {
        pending = pending.filter((entry) => entry !== question);
        emit();
        resolve(answer);
      },
    };
    pending = [...pending, question];
    emit();
  });
}
