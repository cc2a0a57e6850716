import { useEffect, useState } from 'react';
import type { FileSource, ThumbnailSize, ViewableFile } from '../lib/file-source';

/**
 * The file's thumbnail as an object URL while the caller is mounted, or null until it
 * arrives (or when there is none). The request is aborted and the URL revoked when the
 * caller unmounts, so a tile scrolled away holds no memory; the browser's HTTP cache makes
 * the next mount cheap. Nothing is asked for a file whose `preview` says there is no picture.
 */
export function useThumbnail(source: FileSource, file: ViewableFile, size: ThumbnailSize): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const wanted = Boolean(file.preview);
  // Re-asked when the content changes: a new version has a new size or type.
  const { id, size: bytes, mimetype } = file;

  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    source
      .thumbnail(id, size, controller.signal)
      .then((blob) => {
        if (!blob || controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      // No picture is the same as none: the icon stays.
      .catch(() => {});
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [source, id, bytes, mimetype, size, wanted]);

  return url;
}
