/** Query keys of the plan catalogue and the user's subscription. */
export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  current: ['billing', 'current'] as const,
  /** The subscription as a finished checkout left it (the Success screen). */
  checkout: (sessionId: string) => ['billing', 'checkout', sessionId] as const,
};
