import { describe, expect, it } from 'vitest';
import { VIEWPORTS, violationsInEachTheme } from './helpers/axe.ts';
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
  // Both themes on each page as it stands: the theme switches in place, without loading the page again.
  it('have no axe violations in the light and the dark theme', async () => {
    const { page, context } = await openPage(session.browser, session.server.url, { viewport, mobile });
    const found: string[] = [];
    for (const { path } of PUBLIC_PAGES) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      found.push(...(await violationsInEachTheme(page, { label: path })));
    }
    await context.close();
    expect(found).toEqual([]);
  });
});
