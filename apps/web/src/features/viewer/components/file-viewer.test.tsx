// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Trash2 } from 'lucide-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import type { FileSource, ViewableFile } from '../../../lib/file-source';
import { FileViewer } from './file-viewer';

afterEach(cleanup);

/** Archives: the card renderer, which loads nothing. */
const files: ViewableFile[] = ['a.zip', 'b.zip', 'c.zip'].map((name, index) => ({
  id: `f${index}`,
  originalName: name,
  mimetype: 'application/zip',
  size: 2048,
  preview: null,
  contentTag: `t${index}`,
}));

const source: FileSource = {
  bytesUrl: async () => '/nothing',
  thumbnail: async () => null,
  download: vi.fn(async () => {}),
};

function renderViewer(props: Partial<Parameters<typeof FileViewer>[0]> = {}) {
  const onMove = vi.fn();
  const onClose = vi.fn();
  render(<FileViewer files={files} fileId="f1" source={source} onMove={onMove} onClose={onClose} {...props} />);
  return { onMove, onClose };
}

describe('the file viewer', () => {
  it('is a labelled dialog that moves with the arrows and closes with Escape', async () => {
    const { onMove, onClose } = renderViewer();
    const dialog = screen.getByRole('dialog', { name: 'Viewer: b.zip' });
    expect(dialog).toHaveProperty('ariaModal', 'true');
    expect(screen.getByText('2 of 3')).toBeTruthy();
    await userEvent.keyboard('{ArrowRight}');
    expect(onMove).toHaveBeenLastCalledWith('f2');
    await userEvent.keyboard('{ArrowLeft}');
    expect(onMove).toHaveBeenLastCalledWith('f0');
    await userEvent.click(screen.getByRole('button', { name: 'Next file' }));
    expect(onMove).toHaveBeenLastCalledWith('f2');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps the focus inside while tabbing', async () => {
    renderViewer();
    for (let i = 0; i < 6; i += 1) {
      await userEvent.tab();
      expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    }
  });

  it('offers Download only, unless the page gives more actions', async () => {
    renderViewer();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await userEvent.click(screen.getAllByRole('button', { name: 'Download' })[0]!);
    expect(source.download).toHaveBeenCalledWith('f1');
    cleanup();

    const onDelete = vi.fn();
    renderViewer({
      renderActions: (file, toolbar) => toolbar([{ id: 'delete', label: 'Delete', icon: Trash2, onSelect: () => onDelete(file.id) }]),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith('f1');
  });

  it('offers no Download anywhere when the source has none (a view-only link)', () => {
    renderViewer({ source: { bytesUrl: source.bytesUrl, thumbnail: source.thumbnail } });
    screen.getByRole('dialog', { name: 'Viewer: b.zip' });
    // Neither the toolbar nor the card of a file it cannot draw.
    expect(screen.queryAllByRole('button', { name: 'Download' })).toEqual([]);
  });

  it('goes on with the next file when the one shown leaves the folder, and closes when none is left', () => {
    const onMove = vi.fn();
    const onClose = vi.fn();
    const { rerender } = render(<FileViewer files={files} fileId="f1" source={source} onMove={onMove} onClose={onClose} />);
    rerender(<FileViewer files={[files[0]!, files[2]!]} fileId="f1" source={source} onMove={onMove} onClose={onClose} />);
    expect(onMove).toHaveBeenCalledWith('f2');
    rerender(<FileViewer files={[files[2]!]} fileId="f2" source={source} onMove={onMove} onClose={onClose} />);
    rerender(<FileViewer files={[]} fileId="f2" source={source} onMove={onMove} onClose={onClose} />);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
