import { describe, expect, it } from 'vitest';
import { displayContentType } from './display-types.ts';

describe('what a view-only link displays', () => {
  it('keeps the type of raster images, PDF, video and audio', () => {
    expect(displayContentType('image/png', 'a.png')).toBe('image/png');
    expect(displayContentType('application/pdf', 'a.pdf')).toBe('application/pdf');
    expect(displayContentType('video/mp4', 'a.mp4')).toBe('video/mp4');
    expect(displayContentType('audio/mpeg', 'a.mp3')).toBe('audio/mpeg');
  });

  it('shows markup, SVG, script and source only as plain text, by type or by name', () => {
    for (const [type, name] of [
      ['text/html', 'page.html'],
      ['image/svg+xml', 'logo.svg'],
      ['application/javascript', 'app.js'],
      ['application/xhtml+xml', 'page.xhtml'],
      ['text/markdown', 'notes.md'],
      ['application/octet-stream', 'main.py'],
      ['application/octet-stream', 'Dockerfile'],
    ]) {
      expect(displayContentType(type as string, name as string), name).toBe('text/plain; charset=utf-8');
    }
  });

  it('refuses what only a download would give: archives, office files, images no browser decodes', () => {
    expect(displayContentType('application/zip', 'a.zip')).toBeNull();
    expect(displayContentType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx')).toBeNull();
    expect(displayContentType('image/heic', 'a.heic')).toBeNull();
    expect(displayContentType('application/octet-stream', 'blob.bin')).toBeNull();
  });
});
