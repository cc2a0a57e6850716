import { describe, expect, it } from 'vitest';
import type { FilePreview } from '@cloudvault/contract/thumbnails';
import { chooseRenderer, isSafeRaster } from './renderer';

const file = (mimetype: string, originalName: string, preview: FilePreview = null) => ({ mimetype, originalName, preview });

describe('choosing how the viewer shows a file', () => {
  it('shows browser-safe rasters as images, and other images only through their thumbnail', () => {
    expect(chooseRenderer(file('image/jpeg', 'a.jpg'))).toBe('image');
    expect(chooseRenderer(file('image/webp', 'a.webp'))).toBe('image');
    expect(chooseRenderer(file('image/heic', 'a.heic', 'image'))).toBe('image');
    expect(chooseRenderer(file('image/heic', 'a.heic'))).toBe('card');
    expect(isSafeRaster('image/heic')).toBe(false);
  });

  it('never treats SVG as a picture of its own: its raster thumbnail, else its source as text', () => {
    expect(isSafeRaster('image/svg+xml')).toBe(false);
    expect(chooseRenderer(file('image/svg+xml', 'logo.svg', 'image'))).toBe('image');
    expect(chooseRenderer(file('image/svg+xml', 'logo.svg'))).toBe('text');
  });

  it('shows HTML as text, never as a page', () => {
    expect(chooseRenderer(file('text/html', 'index.html'))).toBe('text');
    expect(chooseRenderer(file('application/octet-stream', 'page.htm'))).toBe('text');
  });

  it('picks PDF, media, Markdown and code renderers', () => {
    expect(chooseRenderer(file('application/pdf', 'a.pdf'))).toBe('pdf');
    expect(chooseRenderer(file('video/webm', 'clip.webm'))).toBe('video');
    expect(chooseRenderer(file('audio/mpeg', 'song.mp3'))).toBe('audio');
    expect(chooseRenderer(file('text/markdown', 'README.md'))).toBe('markdown');
    expect(chooseRenderer(file('application/octet-stream', 'notes.markdown'))).toBe('markdown');
    expect(chooseRenderer(file('application/json', 'data.json'))).toBe('text');
    expect(chooseRenderer(file('application/octet-stream', 'main.ts'))).toBe('text');
    expect(chooseRenderer(file('text/plain; charset=utf-8', 'a.txt'))).toBe('text');
  });

  it('falls back to the card for anything else', () => {
    expect(chooseRenderer(file('application/zip', 'a.zip'))).toBe('card');
    expect(chooseRenderer(file('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'))).toBe('card');
    expect(chooseRenderer(file('application/octet-stream', 'blob'))).toBe('card');
  });
});
