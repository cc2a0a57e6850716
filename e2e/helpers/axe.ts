import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.2 A and AA, plus axe's best practices: the accessibility bar every page is held to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Every page is audited at both sizes, in both themes. */
export const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, mobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true },
] as const;
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

type WithAxe = Window & { axe: typeof axe };

/**
 * Which of the tags' rules an audit runs: all of them, or only those axe files under colour
 * (`cat.color`: text contrast, links told apart from text by colour alone). The themes differ in
 * colours only (the `dark` class on <html> switches Tailwind's `dark:` colour variants; no
 * element, text or attribute differs), so the colour rules are the ones whose answer a theme can
 * change: the others give the same answer in either.
 */
export type AxeRules = 'all' | 'colour';

/**
 * The page's (or, with `scope`, one part's) axe violations, each as `label rule: target — what
 * to fix`, so a failure names what to fix. Measured after entrance animations, which change
 * colours while they run.
 *
 * axe-core runs in the page itself: injected once per document, then `axe.run` per audit.
 * @axe-core/playwright's AxeBuilder evaluates axe's 600 KB source twice on every audit and
 * finishes each one in a new blank page, which only cross-origin frames need (the app has no
 * frames, checked here). On CI's two cores that was 4-6 s an audit against 0.2-0.6 s this
 * way, measured on the dashboard and a dialog, over the browser tests' 300 audits.
 */
export async function violationsOf(
  page: Page,
  { label = '', scope, rules = 'all' }: { label?: string; scope?: string; rules?: AxeRules } = {},
): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  if (page.frames().length > 1) throw new Error(`${label}: the page has frames, which axe.run in the page alone would not audit`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  // Every rule of the tags runs; only violations are reported in full (resultTypes keeps one node
  // of each pass, so axe skips describing thousands of passing nodes), and only what a failure
  // message names comes back out of the page. Measured on /pricing under load: 0.1-0.3 s a run
  // against 0.5-1.3 s for the full results.
  const violations = await page.evaluate(
    async ({ scope, tags, colourOnly }) => {
      const { axe } = window as unknown as WithAxe;
      const colourRules = axe
        .getRules(tags)
        .filter((rule) => rule.tags.includes('cat.color'))
        .map((rule) => rule.ruleId);
      const results = await axe.run(scope ? { include: [scope] } : document, {
        runOnly: colourOnly ? { type: 'rule', values: colourRules } : { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return results.violations.map(({ id, help, nodes }) => ({
        id,
        help,
        nodes: nodes.map(({ target, failureSummary }) => ({ target: target.map(String), failureSummary })),
      }));
    },
    { scope, tags: AXE_TAGS, colourOnly: rules === 'colour' },
  );
  const prefix = label ? `${label} ` : '';
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${prefix}${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? violation.help}`,
    ),
  );
}

/**
 * Puts the page in `theme` in place, as the operating system's setting does: the app's theme
 * ('system' until the person picks one, public/theme.js) follows it live, so no new page or
 * sign-in is needed per theme. Waits until <html> carries the theme, so an audit can never run
 * in the other one unnoticed (a stored preference that ignores the system would time out here).
 */
export async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, theme === 'dark');
}

/**
 * Both themes, the page's current one first: going through them in this order costs one switch
 * (and its colour transitions) rather than two.
 */
export async function themesInTurn(page: Page): Promise<[Theme, Theme]> {
  const dark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  return dark ? ['dark', 'light'] : ['light', 'dark'];
}

/**
 * `violationsOf` in each theme in turn, switched in place, each violation naming its theme:
 * every rule in the page's current theme, the colour rules in the other (see AxeRules).
 * `inEachTheme` runs once in each theme, after its audit (a check that depends on the colours,
 * such as a visible focus), so a caller needs no switch of its own. The page is left in the
 * theme audited last, which the next call starts from.
 */
export async function violationsInEachTheme(
  page: Page,
  { label = '', scope, inEachTheme }: { label?: string; scope?: string; inEachTheme?: (theme: Theme) => Promise<void> } = {},
): Promise<string[]> {
  const found: string[] = [];
  const [first, second] = await themesInTurn(page);
  for (const [theme, rules] of [
    [first, 'all'],
    [second, 'colour'],
  ] as const) {
    await showTheme(page, theme);
    found.push(...(await violationsOf(page, { label: `${label ? `${label} ` : ''}(${theme})`, scope, rules })));
    await inEachTheme?.(theme);
  }
  return found;
}
