import { Type, type Static, type TString } from 'typebox';

/** Every error the API answers with: a message a person can read, and a stable code. */
export const ErrorBody = Type.Object({
  error: Type.String(),
  code: Type.Optional(Type.String()),
  /** (++) With 409 NAME_TAKEN: the id of the item that holds the name, so a client can ask what to do. */
  existingId: Type.Optional(Type.String()),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** Opaque server-generated id. Bounded so a hostile id never reaches a query unchecked. */
export const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * A string or null as a JSON Schema type array rather than anyOf: the response
 * serialiser then writes it directly instead of validating every value to pick a
 * branch (10,000-item listings spent half their time there).
 */
export function NullableString(schema: TString) {
  return Type.Unsafe<string | null>({ ...schema, type: ['string', 'null'] });
}

/** An id or null (the root). */
export const NullableId = NullableString(Id);

/** ISO 8601 timestamp in UTC. */
export const Timestamp = Type.String({ format: 'date-time' });

export const MessageBody = Type.Object({ message: Type.String() });
export type MessageBody = Static<typeof MessageBody>;
