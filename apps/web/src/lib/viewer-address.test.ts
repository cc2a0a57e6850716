import { describe, expect, it } from 'vitest';
import { openedHere, viewedFileId, withViewedFile } from './viewer-address';

describe('the viewer in the address', () => {
  it('reads the open file, and nothing for an absent or empty value', () => {
    expect(viewedFileId(new URLSearchParams('folder=f1&view=abc'))).toBe('abc');
    expect(viewedFileId(new URLSearchParams('folder=f1'))).toBeNull();
    expect(viewedFileId(new URLSearchParams('view='))).toBeNull();
  });

  it('opens, moves and closes while keeping the rest of the address', () => {
    const folder = new URLSearchParams('folder=f1');
    const opened = withViewedFile(folder, 'a');
    expect(opened.toString()).toBe('folder=f1&view=a');
    expect(withViewedFile(opened, 'b').toString()).toBe('folder=f1&view=b');
    expect(withViewedFile(opened, null).toString()).toBe('folder=f1');
    // The given params are not changed.
    expect(folder.toString()).toBe('folder=f1');
  });

  it('knows the history entries it pushed', () => {
    expect(openedHere({ viewerOpened: true })).toBe(true);
    expect(openedHere(null)).toBe(false);
    expect(openedHere({ reveal: 'x' })).toBe(false);
  });
});
