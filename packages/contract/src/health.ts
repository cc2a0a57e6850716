import { Type, type Static } from 'typebox';

/** GET /api/health: the process is alive and its database and file store answer (liveness). */
export const HealthResponse = Type.Object({ status: Type.Literal('ok') });
export type HealthResponse = Static<typeof HealthResponse>;

/** GET /api/health/ready: this node takes new requests (a balancer's check); 503 when it does not. */
export const ReadinessResponse = Type.Object({ status: Type.Literal('ready') });
export type ReadinessResponse = Static<typeof ReadinessResponse>;
