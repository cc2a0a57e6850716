// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContextMenu } from './context-menu';

afterEach(cleanup);

function renderMenu(at = { x: 40, y: 60 }) {
  const onClose = vi.fn<(returnFocus: boolean) => void>();
  const onRename = vi.fn();
  render(
    <main>
      <ContextMenu
        label="Actions for notes.txt"
        at={at}
        onClose={onClose}
        items={[
          { id: 'open', label: 'Open' },
          { id: 'rename', label: 'Rename', onSelect: onRename },
          { id: 'delete', label: 'Delete', tone: 'danger', separatorBefore: true },
        ]}
      />
    </main>,
  );
  return { onClose, onRename, menu: screen.getByRole('menu', { name: 'Actions for notes.txt' }) };
}

describe('ContextMenu', () => {
  it('opens on its first item; the arrows wrap, a letter jumps, Enter chooses and hands the focus back first', async () => {
    const user = userEvent.setup();
    const { onClose, onRename } = renderMenu();
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Open' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Delete' }));
    await user.keyboard('{ArrowDown}r');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Rename' }));
    await user.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalledWith(true);
    expect(onRename).toHaveBeenCalledOnce();
  });

  it('closes with the focus given back on Escape, and without it on a press outside', async () => {
    const user = userEvent.setup();
    const { onClose } = renderMenu();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenLastCalledWith(true);
    await user.click(document.body);
    expect(onClose).toHaveBeenLastCalledWith(false);
  });

  it('stays inside the viewport when opened near its corner', () => {
    const { menu } = renderMenu({ x: window.innerWidth - 2, y: window.innerHeight - 2 });
    // jsdom lays nothing out (the menu measures 0 × 0): it is only moved in by the edge margin.
    expect(parseFloat(menu.style.left)).toBeLessThanOrEqual(window.innerWidth - 8);
    expect(parseFloat(menu.style.top)).toBeLessThanOrEqual(window.innerHeight - 8);
  });
});
