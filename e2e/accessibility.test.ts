import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('accessibility');

/** WCAG 2.2 A and AA, plus axe's best practices (issue 22's audit). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, mobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true },
] as const;
const THEMES = ['light', 'dark'] as const;

/** Each violation as `rule: target …`, so a failure names what to fix. */
async function violationsOf(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? violation.help}`),
  );
}

const PUBLIC_PAGES = [
  { path: '/', ready: 'heading' },
  { path: '/login', ready: 'heading' },
  { path: '/register', ready: 'heading' },
  { path: '/pricing', ready: 'heading' },
  { path: '/forgot-password', ready: 'heading' },
  { path: '/s/no-such-link', ready: 'heading' },
] as const;

describe.each(VIEWPORTS)('public pages at $name size', ({ viewport, mobile }) => {
  it.each(THEMES)('have no axe violations in the %s theme', async (theme) => {
    const { page, context } = await openPage(session.browser, session.server.url, { viewport, mobile });
    await page.emulateMedia({ colorScheme: theme });
    const found: string[] = [];
    for (const { path } of PUBLIC_PAGES) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      found.push(...(await violationsOf(page)).map((violation) => `${path} ${violation}`));
    }
    await context.close();
    expect(found).toEqual([]);
  });
});

