// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageInfo } from '@cloudvault/contract/files';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { StorageCard } from './storage-card';

afterEach(cleanup);

const MB = 1024 * 1024;
const storage = (usedMb: number, plan: StorageInfo['plan'] = 'FREE'): StorageInfo => ({
  storageUsed: usedMb * MB,
  storageLimit: 500 * MB,
  storageUsedFormatted: `${usedMb} MB`,
  storageLimitFormatted: '500 MB',
  plan,
});

function bar() {
  const progress = screen.getByRole('progressbar', { name: 'Storage used' });
  return { progress, fill: progress.firstElementChild as HTMLElement };
}

describe('StorageCard', () => {
  it.each([
    [0, 'normal', 'bg-blue-500'],
    [370, 'normal', 'bg-blue-500'],
    [375, 'warning', 'bg-yellow-400'],
    [449, 'warning', 'bg-yellow-400'],
    [450, 'critical', 'bg-red-500'],
    [500, 'critical', 'bg-red-500'],
  ])('at %s MB of 500 MB the bar is %s', (usedMb, tone, colour) => {
    renderWithProviders(<StorageCard storage={storage(usedMb, 'PRO')} />);
    const { progress, fill } = bar();
    expect(progress.getAttribute('data-tone')).toBe(tone);
    expect(fill.className).toContain(colour);
  });

  it('clamps an over-quota usage to a full bar', () => {
    renderWithProviders(<StorageCard storage={storage(800, 'PRO')} />);
    const { progress, fill } = bar();
    expect(progress.getAttribute('aria-valuenow')).toBe('100');
    expect(fill.style.width).toBe('100%');
    expect(screen.getByText('100% used')).toBeTruthy();
  });

  it('warns Free users from 80 % and offers the upgrade', () => {
    const { unmount } = renderWithProviders(<StorageCard storage={storage(395)} />);
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();
    renderWithProviders(<StorageCard storage={storage(400)} />);
    expect(screen.getByRole('alert').textContent).toContain('You have used 80% of your free storage');
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
    expect(screen.getByText('400 MB of 500 MB used')).toBeTruthy();
  });

  it('does not warn paying users', () => {
    renderWithProviders(<StorageCard storage={storage(480, 'PRO')} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
