import { AppError } from './errors.ts';

/** For unit tests: the AppError `promise` rejects with; anything else (or no rejection) fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (reason: unknown) => ({ rejected: reason }),
  );
  if (!('rejected' in outcome))
    throw new Error(`expected a refusal (an AppError), but it resolved with ${JSON.stringify(outcome.resolved)}`);
  if (!(outcome.rejected instanceof AppError)) throw new Error(`expected an AppError, but it rejected with ${String(outcome.rejected)}`);
  return outcome.rejected;
}
