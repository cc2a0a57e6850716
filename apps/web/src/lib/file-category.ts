/**
 * The categories of docs/product.md#file-categories, with documents split by kind so each gets its icon:
 * image, video, audio, document (pdf, word, sheet, presentation), archive, otherwise default.
 */
export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'word' | 'sheet' | 'presentation' | 'archive' | 'text' | 'default';

const EXTENSIONS: Record<string, FileKind> = {
  pdf: 'pdf',
  doc: 'word',
  docx: 'word',
  odt: 'word',
  rtf: 'word',
  xls: 'sheet',
  xlsx: 'sheet',
  ods: 'sheet',
  csv: 'sheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  key: 'presentation',
  zip: 'archive',
  rar: 'archive',
  '7z': 'archive',
  tar: 'archive',
  gz: 'archive',
  txt: 'text',
  md: 'text',
};

export function fileKind(mimetype: string, name = ''): FileKind {
  const type = mimetype.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type.includes('pdf')) return 'pdf';
  if (/msword|wordprocessing|opendocument\.text|rtf/.test(type)) return 'word';
  if (/sheet|excel|csv/.test(type)) return 'sheet';
  if (/presentation|powerpoint/.test(type)) return 'presentation';
  if (/zip|rar|x-7z|x-tar|gzip/.test(type)) return 'archive';
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (EXTENSIONS[extension]) return EXTENSIONS[extension];
  if (type.startsWith('text/')) return 'text';
  return 'default';
}
