import { describe, expect, it } from 'vitest';
import { fileKind } from './file-category';

describe('file icons', () => {
  it('picks the category of docs/product.md#file-categories', () => {
    expect(fileKind('image/png', 'a.png')).toBe('image');
    expect(fileKind('video/mp4', 'a.mp4')).toBe('video');
    expect(fileKind('audio/mpeg', 'a.mp3')).toBe('audio');
    expect(fileKind('application/pdf', 'a.pdf')).toBe('pdf');
    expect(fileKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx')).toBe('word');
    expect(fileKind('application/vnd.ms-excel', 'a.xls')).toBe('sheet');
    expect(fileKind('application/vnd.ms-powerpoint', 'a.ppt')).toBe('presentation');
    expect(fileKind('application/zip', 'a.zip')).toBe('archive');
    expect(fileKind('application/vnd.rar', 'a.rar')).toBe('archive');
    expect(fileKind('application/octet-stream', 'notes.docx')).toBe('word');
    expect(fileKind('application/octet-stream', 'blob.bin')).toBe('default');
  });
});
