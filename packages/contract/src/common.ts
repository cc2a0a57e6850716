import { Type, type Static } from 'typebox';

/** Every error the API answers with: a message a person can read, and a stable code. */
export const ErrorBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** Opaque server-generated id. Bounded so a hostile id never reaches a query unchecked. */
export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/** ISO 8601 timestamp in UTC. */
export const Timestamp = Type.String({ format: 'date-time' });

export const MessageBody = Type.Object({ message: Type.String() });
export type MessageBody = Static<typeof MessageBody>;
