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

type WithAxe = Window & { axe: typeof axe };

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
export async function violationsOf(page: Page, { label = '', scope }: { label?: string; scope?: string } = {}): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  if (page.frames().length > 1) throw new Error(`${label}: the page has frames, which axe.run in the page alone would not audit`);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(
    ({ scope, tags }) =>
      (window as unknown as WithAxe).axe.run(scope ? { include: [scope] } : document, { runOnly: { type: 'tag', values: tags } }),
    { scope, tags: AXE_TAGS },
  );
  const prefix = label ? `${label} ` : '';
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${prefix}${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? violation.help}`,
    ),
  );
}
