/**
 * What the address says on arriving at /subscription (docs/product.md#subscription): `updated=true`
 * after a plan change elsewhere, `session_id` on the way back from the billing portal. Both
 * are shown once and then removed, so a reload or a shared link does not repeat them.
 */
export interface ArrivalNotices {
  updated: boolean;
  portalReturn: boolean;
  /** The address's query without them; null when there was nothing to remove. */
  remaining: URLSearchParams | null;
}

export function arrivalNotices(params: URLSearchParams): ArrivalNotices {
  const updated = params.get('updated') === 'true';
  const portalReturn = params.has('session_id');
  if (!params.has('updated') && !portalReturn) return { updated, portalReturn, remaining: null };
  const remaining = new URLSearchParams(params);
  remaining.delete('updated');
  remaining.delete('session_id');
  return { updated, portalReturn, remaining };
}
