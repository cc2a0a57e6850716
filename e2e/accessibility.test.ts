import { describe, expect, it } from 'vitest';
import { THEMES, VIEWPORTS, violationsOf } from './helpers/axe.ts';
import { openPage } from './helpers/browser.ts';
import { useE2eSession } from './helpers/session.ts';

const session = useE2eSession('accessibility');

const PUBLIC_PAGES = [
  { path: '/', ready: 'heading' },
  { path: '/login', ready: 'heading' },
  { path: '/register', ready: 'heading' },
  { path: '/pricing', ready: 'heading' },
  { path: '/forgot-password', ready: 'heading' },
  // The form with its checkbox shows for any token; only sending it checks the token.
  { path: '/reset-password?token=not-checked-until-sent', ready: 'heading' },
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
