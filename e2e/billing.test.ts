import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import type { CurrentSubscriptionResponse } from '@cloudvault/contract/subscriptions';
import { createFile, uploadFile } from '@cloudvault/test-support/drive';
import { useE2eSession } from './helpers/session.ts';
import { openPage } from './helpers/browser.ts';
import { downloadedBytes, sparseFile, tile } from './helpers/drive.ts';

const MB = 1024 * 1024;

const session = useE2eSession('billing');

const planCard = (page: Page, name: string) => page.getByRole('list', { name: 'Plans' }).getByRole('listitem', { name, exact: true });
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).first();

async function currentViaApi(token: string) {
  const response = await fetch(`${session.server.url}/api/subscriptions/current`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as CurrentSubscriptionResponse;
}

/** Uploads a file of `size` bytes streamed from a temporary sparse file on disk, never held in memory; the file is removed after. */
async function uploadLargeViaApi(token: string, name: string, size: number): Promise<void> {
  const file = path.join(session.workDir, name);
  await sparseFile(file, size);
  try {
    const answer = await uploadFile(session.server, token, { path: file }, { name });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  } finally {
    await rm(file, { force: true });
  }
}

describe('pricing for visitors', () => {
  it('shows the catalogue, the FAQ and sends every call to action to registration', async () => {
    const { page, context } = await openPage(session.browser, session.server.url);
    const subscriptionCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/subscriptions/current')) subscriptionCalls.push(request.url());
    });
    await page.goto('/pricing');
    await page.getByRole('heading', { level: 1, name: 'Choose Your Perfect Plan' }).waitFor();

    // Three cards from the API, by price; Pro is the popular one.
    await planCard(page, 'Free').waitFor();
    expect(await page.getByRole('list', { name: 'Plans' }).locator(':scope > li').count()).toBe(3);
    expect(await planCard(page, 'Pro').getByText('Most Popular').count()).toBe(1);
    expect(await planCard(page, 'Free').getByText('Most Popular').count()).toBe(0);
    await planCard(page, 'Pro').getByText('$9.99').waitFor();
    await planCard(page, 'Business').getByText('$19.99').waitFor();

    // The four FAQ statements of docs/product.md#faq.
    await page.getByText('Upgrades and downgrades take effect immediately, and the price is prorated').waitFor();
    await page.getByText('new uploads are blocked until your usage is under').waitFor();
    await page.getByText('If you cancel during your first month, you get a full refund.').waitFor();
    await page.getByText('The Free plan is free forever').waitFor();

    for (const [card, label] of [
      ['Free', 'Get Started Free'],
      ['Pro', 'Start Pro Trial'],
      ['Business', 'Start Premium'],
    ] as const) {
      expect(await planCard(page, card).getByRole('link', { name: label }).getAttribute('href')).toBe('/register');
    }
    expect(await page.getByRole('link', { name: 'Create Free Account' }).getAttribute('href')).toBe('/register');

    await planCard(page, 'Pro').getByRole('link', { name: 'Start Pro Trial' }).click();
    await page.waitForURL(/\/register$/);
    // A visitor has no subscription to ask about.
    expect(subscriptionCalls).toEqual([]);
    await context.close();
  });
});

describe('billing journey', () => {
  it(
    'Free → Pro through the test checkout, a first-month cancel refunded at once, Pro again, cancel and reactivate, then ended in the portal while over the Free limit',
    { timeout: 240_000 },
    async () => {
      const account = await createUser(session.server, { firstName: 'Grace' });
      const keep = await createFile(session.server, account.token, 'still mine after the downgrade\n', {
        name: 'keep.txt',
        type: 'text/plain',
      });
      const { page, context } = await openPage(session.browser, session.server.url, { token: account.token });

      // Pricing, signed in: Free is the current plan, Pro can be bought.
      await page.goto('/pricing');
      await planCard(page, 'Free').getByRole('button', { name: 'Current Plan' }).waitFor();
      expect(await planCard(page, 'Free').getByRole('button', { name: 'Current Plan' }).isDisabled()).toBe(true);
      const subscribePro = planCard(page, 'Pro').getByRole('button', { name: 'Start Pro Trial' });

      // A session that ended in another tab cannot subscribe.
      await page.evaluate(() => localStorage.removeItem('token'));
      await subscribePro.click();
      await toast(page, 'Please sign in to subscribe').waitFor();
      await page.evaluate((token) => localStorage.setItem('token', token), account.token);

      // The built-in test checkout, then Pay.
      await subscribePro.click();
      await page.waitForURL(/\/api\/payments\/local\/checkout\/[\w-]+$/);
      await page.getByRole('heading', { name: 'Test checkout' }).waitFor();
      await page.getByText('No card is charged').waitFor();
      await page.getByRole('button', { name: 'Pay $9.99' }).click();

      // The Success screen: welcome, details and the receipt of the newest invoice.
      await page.waitForURL(/\/success\?session_id=/);
      await page.getByRole('heading', { level: 1, name: 'Welcome to Pro' }).waitFor();
      const details = page.getByRole('region', { name: 'Subscription details' });
      await details.getByText('100 GB').waitFor();
      await details.getByText('Active').waitFor();
      await details.getByText('Next Billing').waitFor();
      const { billingHistory } = await currentViaApi(account.token);
      const receipt = page.getByRole('region', { name: 'Payment Receipt' });
      await receipt.getByText(`#${billingHistory[0]!.invoiceId.slice(-8)}`).waitFor();
      await receipt.getByText('9.99 USD').waitFor();
      await receipt.getByText('Paid').waitFor();
      expect(await receipt.getByRole('link', { name: 'View Full Invoice' }).getAttribute('href')).toMatch(
        /\/api\/payments\/local\/invoices\//,
      );
      await page.getByRole('region', { name: "What's included" }).getByText('100 GB storage').waitFor();
      expect(await page.getByRole('link', { name: 'Manage Subscription' }).getAttribute('href')).toBe('/subscription');
      // The header's plan badge follows at once.
      await page.getByRole('banner').getByText('Pro plan').waitFor();

      // The dashboard's storage card shows the new limit.
      await page.getByRole('link', { name: 'Continue to Dashboard' }).click();
      await page.waitForURL(/\/dashboard$/);
      const storageCard = page.getByRole('region', { name: 'Storage', exact: true });
      await storageCard.getByText(/ of 100 GB used$/).waitFor();
      await storageCard.getByText('Pro plan').waitFor();

      // Subscription & Billing: cancelling in the first month refunds it and ends it at once.
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Subscription' }).click();
      await page.waitForURL(/\/subscription$/);
      await page.getByRole('heading', { level: 2, name: 'Pro', exact: true }).waitFor();
      await page.getByText('Status: Active').waitFor();
      await page.getByRole('button', { name: 'Cancel subscription' }).click();
      let dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
      await dialog.getByText(/your payment is refunded instead and you go back to the Free plan right away/).waitFor();
      await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
      await toast(page, 'Subscription canceled and your payment refunded. You are on the Free plan.').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 2, name: 'Free', exact: true }).waitFor();
      await page.getByText('Status: Canceled').waitFor();
      await page.getByRole('button', { name: 'Upgrade Plan' }).waitFor();
      expect(await page.getByText(/^Subscription ends on /).count()).toBe(0);
      expect(await page.getByRole('banner').getByText('Pro plan').count()).toBe(0);
      expect((await currentViaApi(account.token)).billingHistory.map((item) => item.amount)).toEqual([-9.99, 9.99]);

      // Pro again: the refund was the only one, so this cancellation keeps Pro to the period end.
      await page.goto('/pricing');
      await planCard(page, 'Pro').getByRole('button', { name: 'Start Pro Trial' }).click();
      await page.waitForURL(/\/api\/payments\/local\/checkout\/[\w-]+$/);
      await page.getByRole('button', { name: 'Pay $9.99' }).click();
      await page.waitForURL(/\/success\?session_id=/);
      await page.getByRole('heading', { level: 1, name: 'Welcome to Pro' }).waitFor();
      await page.goto('/subscription');
      await page.getByRole('heading', { level: 2, name: 'Pro', exact: true }).waitFor();
      await page.getByText('Status: Active').waitFor();
      await page.getByRole('button', { name: 'Cancel subscription' }).click();
      dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
      await dialog.getByText(/lose access to premium features at the end of your current billing period/).waitFor();
      await dialog.getByRole('button', { name: 'Keep Subscription' }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
      await toast(page, 'Subscription will be canceled at the end of the billing period').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(/^Subscription ends on /).waitFor();
      expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);

      // Reactivate: the notice goes, cancelling is possible again.
      await page.getByRole('button', { name: 'Reactivate' }).click();
      await toast(page, 'Subscription reactivated successfully!').waitFor();
      await page.getByRole('button', { name: 'Cancel subscription' }).waitFor();
      expect(await page.getByText(/^Subscription ends on /).count()).toBe(0);

      // More than the Free plan's 500 MB, fine on Pro.
      await uploadLargeViaApi(account.token, 'archive.bin', 510 * MB);
      expect((await currentViaApi(account.token)).storageUsed).toBeGreaterThan(500 * MB);

      // The tabs by keyboard, to Plans; then Manage Billing opens the portal after its toast.
      await page.getByRole('tab', { name: 'Overview' }).focus();
      for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Plans' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Plans');
      await page.getByRole('tabpanel').getByRole('button', { name: 'Current Plan' }).waitFor();
      await page.getByRole('button', { name: 'Manage Billing' }).click();
      await toast(page, 'Redirecting to billing portal...').waitFor();
      await page.waitForURL(/\/api\/payments\/local\/portal\/[\w-]+/);
      await page.getByRole('heading', { name: 'Billing portal (test)' }).waitFor();
      await page.getByRole('button', { name: 'End subscription now' }).click();
      await page.getByText('Your subscription has ended').waitFor();
      await page.getByRole('link', { name: 'Return to CloudVault' }).click();

      // Back on Free and over its limit.
      await page.waitForURL(/\/subscription$/);
      await page.getByRole('heading', { level: 2, name: 'Free', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Upgrade Plan' }).waitFor();
      await page.getByRole('heading', { name: 'Storage Almost Full!' }).waitFor();
      expect(await page.getByRole('banner').getByText('Pro plan').count()).toBe(0);

      // An upload in the dashboard is refused with the reason; an existing file still downloads.
      await page.goto('/dashboard');
      await page
        .getByRole('region', { name: 'Storage', exact: true })
        .getByText(/ of 500 MB used$/)
        .waitFor();
      const small = path.join(session.workDir, 'one-more.txt');
      await writeFile(small, 'one more file');
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.getByRole('dialog', { name: 'Upload Files' }).getByLabel('Upload files', { exact: true }).setInputFiles(small);
      const row = page.getByRole('region', { name: 'Uploads' }).getByRole('listitem', { name: 'one-more.txt' });
      await row
        .getByRole('alert')
        .filter({ hasText: /more than the 500 MB of the Free plan/ })
        .waitFor();
      await toast(page, '1 file failed to upload').waitFor();

      const download = page.waitForEvent('download');
      await tile(page, 'keep.txt').getByRole('button', { name: 'Download', exact: true }).click();
      expect((await downloadedBytes(await download)).toString()).toBe('still mine after the downgrade\n');
      expect(keep.originalName).toBe('keep.txt');
      await context.close();
    },
  );
});
