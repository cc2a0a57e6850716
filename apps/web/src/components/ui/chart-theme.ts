/**
 * How every recharts chart of the app follows the theme: its tooltip on the theme's surface
 * and its axis text in the wrapper's colour, so charts read in light and dark alike.
 */

export const tooltipStyle = {
  contentStyle: {
    background: 'var(--cv-surface)',
    border: '1px solid var(--cv-line)',
    borderRadius: '0.625rem',
    color: 'var(--cv-ink)',
    fontSize: '0.8125rem',
  },
  labelStyle: { color: 'var(--cv-ink)', fontWeight: 600 },
  itemStyle: { color: 'var(--cv-ink)' },
} as const;

/** Axis text takes the wrapper's colour (`text-ink-muted`), so it follows the theme. */
export const axisTick = { fill: 'currentColor', fontSize: 12 } as const;
