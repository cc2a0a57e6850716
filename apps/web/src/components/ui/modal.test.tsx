// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { Modal } from './modal';

afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Create New Folder"
        footer={
          <>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button">Create</button>
          </>
        }
      >
        <label>
          Folder name
          <input />
        </label>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('moves focus in, traps Tab and Shift+Tab, closes on Escape and returns focus to the opener', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Create New Folder' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    // The first focusable element: the close button in the header.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));

    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Folder name'));
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create' }));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes from its close button and returns focus', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open dialog' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open dialog' }));
  });

  it('skips controls Tab cannot reach (tabindex -1, disabled, hidden) so Tab never leaves, and Escape closes from outside too', async () => {
    const user = userEvent.setup();
    function WithSkippedControls() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open dialog
          </button>
          <Modal open={open} onClose={() => setOpen(false)} title="Upload Files">
            <div role="button" tabIndex={0}>
              Upload files
            </div>
            <input type="file" tabIndex={-1} aria-label="Files" />
            <button type="button" disabled>
              Busy
            </button>
            <button type="button" hidden>
              Hidden
            </button>
          </Modal>
        </>
      );
    }
    render(<WithSkippedControls />);
    const opener = screen.getByRole('button', { name: 'Open dialog' });
    await user.click(opener);
    const zone = screen.getByRole('button', { name: 'Upload files' });

    await user.tab();
    expect(document.activeElement).toBe(zone);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(zone);

    // Focus pushed out of the dialog (a script, a click-through) is brought back…
    opener.focus();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    // …and Escape pressed on the page behind still closes the dialog.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
