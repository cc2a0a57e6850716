import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { pathOf, subscribe } from '@cloudvault/test-support/checkout';
import { createFile, createFolder } from '@cloudvault/test-support/drive';
import { callApi } from '@cloudvault/test-support/running-server';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { pressToolbarButton, tile } from './helpers/drive.ts';
import { verifyViaOutbox } from './helpers/outbox.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('accessibility-signed-in');

/** A drive with something on every page: folders and files, a nested and an empty folder, Trash, a share from someone else. */
const drive = { token: '', projectsId: '', emptyId: '', successPath: '' };

beforeAll(async () => {
  const owner = await createUser(session.server, { firstName: 'Ada', lastName: 'Lovelace' });
  // Business: the Usage tab shows its analytics, and links and versions show on every page.
  const checkout = await subscribe(session.server, owner.token, 'PREMIUM');
  const projects = await createFolder(session.server, owner.token, 'Projects');
  const empty = await createFolder(session.server, owner.token, 'Empty');
  await createFolder(session.server, owner.token, 'Drafts', projects.id);
  await createFile(session.server, owner.token, 'minutes of the meeting', {
    name: 'minutes.txt',
    type: 'text/plain',
    folderId: projects.id,
  });
  await createFile(session.server, owner.token, 'hello', { name: 'notes.txt', type: 'text/plain' });
  await createFile(session.server, owner.token, new Uint8Array(40_000), { name: 'report.pdf', type: 'application/pdf' });
  const old = await createFile(session.server, owner.token, 'old', { name: 'old-draft.txt', type: 'text/plain' });
  await callApi(session.server, owner.token, 'DELETE', `/files/${old.id}`);
  const shared = await createFile(session.server, owner.token, 'shared', { name: 'shared.txt', type: 'text/plain' });
  await callApi(session.server, owner.token, 'POST', `/files/${shared.id}/share`, {});

  // Someone else shares a folder with this account (private shares show to a verified address).
  await verifyViaOutbox(session.server, owner.email);
  const colleague = await createUser(session.server, { firstName: 'Grace', lastName: 'Hopper' });
  const team = await createFolder(session.server, colleague.token, 'Team');
  await callApi(session.server, colleague.token, 'POST', `/user/folders/${team.id}/share`, { shareType: 'private', email: owner.email });

  Object.assign(drive, { token: owner.token, projectsId: projects.id, emptyId: empty.id, successPath: pathOf(checkout.location ?? '') });
}, 60_000);

/**
 * Nothing still loading or moving: spinners gone, the tiles' entrance over, and no finite
 * animation or transition running. Colours are audited at rest: axe blends a fading or
 * changing colour as it is at that instant (a CI run once found at 4.05:1 a link that every
 * other run found at rest above 4.5:1).
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('.animate-spin, [aria-busy="true"], .cv-tile-in') &&
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Opens a tab of the page's tab list and waits for its panel. */
async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('tab', { name, selected: true }).waitFor();
  await settled(page);
}

/** Each signed-in page (and each state of it worth auditing), as steps that bring it up. */
const STEPS: Array<{ name: string; show: (page: Page) => Promise<void> }> = [
  {
    name: 'My Files, grid',
    show: async (page) => {
      await page.goto('/dashboard');
      await tile(page, 'report.pdf').waitFor();
    },
  },
  {
    name: 'My Files, row menu open',
    show: async (page) => {
      await tile(page, 'notes.txt').getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menu', { name: 'More actions' }).waitFor();
    },
  },
  {
    name: 'My Files, account menu open',
    show: async (page) => {
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menu', { name: 'Account menu' }).waitFor();
    },
  },
  {
    name: 'My Files, list',
    show: async (page) => {
      await page.keyboard.press('Escape');
      await pressToolbarButton(page, 'List view');
      await page.locator('[role="grid"][data-view="list"]').waitFor();
      await tile(page, 'report.pdf').waitFor();
    },
  },
  {
    name: 'a nested folder, list',
    show: async (page) => {
      await page.goto(`/dashboard?folder=${drive.projectsId}`);
      await tile(page, 'minutes.txt').waitFor();
    },
  },
  {
    name: 'a nested folder, grid',
    show: async (page) => {
      await pressToolbarButton(page, 'Grid view');
      await page.locator('[role="grid"][data-view="grid"]').waitFor();
    },
  },
  {
    name: 'an empty folder',
    show: async (page) => {
      await page.goto(`/dashboard?folder=${drive.emptyId}`);
      await page.getByText('This folder is empty').waitFor();
    },
  },
  {
    name: 'Shared with me',
    show: async (page) => {
      await page.goto('/shared');
      await page.getByText('Team', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'Manage shares',
    show: async (page) => {
      await page.goto('/shares');
      await page.getByText('shared.txt').first().waitFor();
    },
  },
  {
    name: 'Trash',
    show: async (page) => {
      await page.goto('/trash');
      await page.getByText('old-draft.txt').first().waitFor();
    },
  },
  ...['Profile', 'Security', 'Preferences', 'Activity'].map((tab) => ({
    name: `Profile, ${tab}`,
    show: async (page: Page) => {
      if (!page.url().endsWith('/profile')) await page.goto('/profile');
      await openTab(page, tab);
    },
  })),
  ...['Overview', 'Billing', 'Usage', 'Plans'].map((tab) => ({
    name: `Subscription, ${tab}`,
    show: async (page: Page) => {
      if (!page.url().endsWith('/subscription')) await page.goto('/subscription');
      await openTab(page, tab);
    },
  })),
  {
    name: 'Settings',
    show: async (page) => {
      await page.goto('/settings');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    },
  },
  {
    name: 'Pricing, signed in',
    show: async (page) => {
      await page.goto('/pricing');
      await page.getByRole('heading', { level: 1 }).waitFor();
    },
  },
  {
    name: 'Success, after the checkout',
    show: async (page) => {
      await page.goto(drive.successPath);
      await page.getByRole('heading', { level: 1, name: 'Welcome to Business' }).waitFor();
      await page.getByRole('region', { name: 'Payment Receipt' }).waitFor();
    },
  },
];

describe.each(VIEWPORTS)('signed-in pages at $name size', ({ viewport, mobile }) => {
  // Each state is audited in both themes as it stands: the theme switches in place, without going through the steps again.
  it('have no axe violations in the light and the dark theme', { timeout: 180_000 }, async () => {
    const { page, context } = await openPage(session.browser, session.server.url, { token: drive.token, viewport, mobile });
    const found: string[] = [];
    for (const step of STEPS) {
      await step.show(page);
      await settled(page);
      found.push(...(await violationsInEachTheme(page, { label: `${step.name}:` })));
    }
    await context.close();
    expect(found).toEqual([]);
  });
});
