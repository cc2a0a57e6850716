// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { DropdownMenu } from './dropdown-menu';

afterEach(cleanup);

function renderMenu(onSignOut = vi.fn()) {
  const menu = (
    <DropdownMenu
      label="Account menu"
      trigger={<span>AT</span>}
      items={[
        { id: 'profile', label: 'Profile', to: '/profile' },
        { id: 'settings', label: 'Settings', to: '/settings' },
        { id: 'sign-out', label: 'Sign out', onSelect: onSignOut },
      ]}
    />
  );
  const router = createMemoryRouter([{ path: '*', element: menu }], { initialEntries: ['/dashboard'] });
  render(<RouterProvider router={router} />);
  return { router, onSignOut };
}

describe('DropdownMenu', () => {
  it('opens with Enter on the first item, moves with the arrows, and Escape returns focus', async () => {
    const user = userEvent.setup();
    renderMenu();
    const trigger = screen.getByRole('button', { name: 'Account menu' });
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    trigger.focus();
    await user.keyboard('{Enter}');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));

    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Settings' }));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign out' }));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('opens with Space and ArrowUp, and runs or follows the chosen item', async () => {
    const user = userEvent.setup();
    const { router, onSignOut } = renderMenu();
    const trigger = screen.getByRole('button', { name: 'Account menu' });

    trigger.focus();
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Sign out' }));
    await user.keyboard('{Enter}');
    expect(onSignOut).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();

    await user.keyboard(' ');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{ArrowDown}{Enter}');
    expect(router.state.location.pathname).toBe('/settings');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
