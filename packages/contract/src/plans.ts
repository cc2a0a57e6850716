import { Type, type Static } from 'typebox';

/** Plan ids as the checkout and the API name them (shown as Free, Pro, Business). */
export const PlanId = Type.Union([Type.Literal('FREE'), Type.Literal('PRO'), Type.Literal('PREMIUM')]);
export type PlanId = Static<typeof PlanId>;

/** A plan of the catalogue; `null` limits mean unlimited. */
export const Plan = Type.Object({
  id: PlanId,
  name: Type.String(),
  /** Dollars per month. */
  price: Type.Number({ minimum: 0 }),
  description: Type.String(),
  features: Type.Array(Type.String()),
  popular: Type.Boolean(),
  /** Bytes. */
  storageLimit: Type.Integer({ minimum: 0 }),
  /** Bytes per file; null = no per-file limit. */
  maxFileSize: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  prioritySupport: Type.Boolean(),
  /** Uploads at once per user; null = unlimited. */
  maxConcurrentUploads: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
});
export type Plan = Static<typeof Plan>;
