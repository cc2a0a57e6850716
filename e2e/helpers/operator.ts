import { createUser } from '@cloudvault/test-support/accounts';
import { verifyViaOutbox } from './outbox.ts';
import type { E2eSession } from './session.ts';

type User = Awaited<ReturnType<typeof createUser>>;

/**
 * The operator of a session started with `ADMIN_EMAILS` set to `email`: a function that
 * registers and verifies them on its first call and answers the same account after.
 */
export function sessionOperator(session: E2eSession, email: string): () => Promise<User> {
  let operator: User | undefined;
  return async () => {
    if (!operator) {
      operator = await createUser(session.server, { email, firstName: 'Olga', lastName: 'Operator' });
      await verifyViaOutbox(session.server, email);
    }
    return operator;
  };
}
