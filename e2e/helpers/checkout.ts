/** Buys a paid plan through the server's built-in test checkout, as the browser's Pay button does. */
export async function subscribeViaApi(baseUrl: string, token: string, planType: 'PRO' | 'PREMIUM'): Promise<void> {
  const created = await fetch(`${baseUrl}/api/subscriptions/create-checkout-session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ planType }),
  });
  if (created.status !== 200) throw new Error(`checkout answered ${created.status}: ${await created.text()}`);
  const { sessionUrl } = (await created.json()) as { sessionUrl: string };
  const paid = await fetch(`${sessionUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`pay answered ${paid.status}: ${await paid.text()}`);
}
