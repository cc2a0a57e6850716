/** Questions on the terminal: plain ones, and secret ones whose answer is not echoed. */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/** Whether a person can be asked: both standard input and standard error are terminals. */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Asks one question on standard error and answers the line typed; `secret` hides what is typed. */
export async function ask(question: string, options: { secret?: boolean } = {}): Promise<string> {
  let muted = false;
  // Readline echoes through its output: a muted stream in front of stderr hides the secret.
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = options.secret ?? false;
    return await answer;
  } finally {
    if (muted) process.stderr.write('\n');
    rl.close();
  }
}
