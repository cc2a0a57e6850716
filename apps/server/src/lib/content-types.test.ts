import { describe, expect, it } from 'vitest';
import { categorize, downloadContentType, resolveMimetype } from './content-types.ts';

describe('content types', () => {
  it('keeps a meaningful declared type and falls back to the extension', () => {
    expect(resolveMimetype('image/PNG', 'x.bin')).toBe('image/png');
    expect(resolveMimetype('application/octet-stream', 'report.pdf')).toBe('application/pdf');
    expect(resolveMimetype(undefined, 'song.mp3')).toBe('audio/mpeg');
    expect(resolveMimetype('not a type', 'notes.txt')).toBe('text/plain');
    expect(resolveMimetype(undefined, 'no-extension')).toBe('application/octet-stream');
  });

  it.each([
    ['image/jpeg', 'image'],
    ['video/mp4', 'video'],
    ['audio/mpeg', 'audio'],
    ['application/pdf', 'document'],
    ['text/plain', 'document'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
    ['application/vnd.ms-excel', 'document'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'document'],
    ['application/zip', 'archive'],
    ['application/vnd.rar', 'archive'],
    ['application/octet-stream', 'other'],
  ])('puts %s in %s', (mimetype, category) => {
    expect(categorize(mimetype)).toBe(category);
  });

  it.each([
    'text/html',
    'image/svg+xml',
    'application/xhtml+xml',
    'text/xml',
    'application/xml',
    'text/javascript',
    'application/javascript',
    'text/css',
    'application/x-unknown',
  ])('never serves %s as itself', (mimetype) => {
    expect(downloadContentType(mimetype)).toBe('application/octet-stream');
  });

  it.each(['image/png', 'video/mp4', 'application/pdf', 'text/plain'])('serves inert %s as itself', (mimetype) => {
    expect(downloadContentType(mimetype)).toBe(mimetype);
  });
});
