import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Compile } from 'typebox/compile';
import { Type, type Static } from 'typebox';
import { Plan, type PlanId } from '@cloudvault/contract/plans';

/** What a plan allows beyond what the public catalogue shows. */
const PlanEntry = Type.Intersect([
  Plan,
  Type.Object({
    capabilities: Type.Object({
      passwordProtectedLinks: Type.Boolean(),
      maxShareExpiryHours: Type.Integer({ minimum: 1 }),
      versioning: Type.Boolean(),
      analytics: Type.Boolean(),
    }),
  }),
]);
export type PlanEntry = Static<typeof PlanEntry>;

const PlanFile = Type.Array(PlanEntry, { minItems: 1 });
const checkPlanFile = Compile(PlanFile);

export const DEFAULT_PLANS_FILE = fileURLToPath(new URL('../../../config/plans.json', import.meta.url));

/** The plan catalogue: data from one file, read once at start-up. */
export interface PlanCatalogue {
  all(): PlanEntry[];
  get(id: string): PlanEntry;
}

export function loadPlanCatalogue(file = DEFAULT_PLANS_FILE): PlanCatalogue {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PLANS_FILE ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  if (!checkPlanFile.Check(data)) {
    const [first] = checkPlanFile.Errors(data);
    throw new Error(`PLANS_FILE ${file} is not a valid plan list: ${first?.instancePath ?? ''} ${first?.message ?? ''}`);
  }
  const plans = [...data].sort((a, b) => a.price - b.price);
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  if (!byId.has('FREE')) throw new Error(`PLANS_FILE ${file} must contain the FREE plan`);
  return {
    all: () => plans,
    // An id no longer in the catalogue falls back to Free rather than locking the user out.
    get: (id: string) => byId.get(id as PlanId) ?? (byId.get('FREE') as PlanEntry),
  };
}
