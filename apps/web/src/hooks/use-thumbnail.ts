import { useEffect, useState } from 'react';
import { hasThumbnail, type FileSource, type ThumbnailSize, type ViewableFile } from '../lib/file-source';

/**
 * The file's thumbnail as an object URL while the caller is mounted (`url`, null until it
 * arrives or when there is none; `settled` once the answer is in). The request is aborted and
 * the URL revoked when the caller unmounts, so a tile scrolled away holds no memory; the
 * browser's HTTP cache makes the next mount cheap. Nothing is asked for a file whose
 * `preview` has no picture.
 */
export function useThumbnail(source: FileSource, file: ViewableFile, size: ThumbnailSize): { url: string | null; settled: boolean } {
  const wanted = hasThumbnail(file);
  // Asked again when the content changes (a new version): its tag is in the address.
  const { id, contentTag } = file;
  const key = `${id}:${contentTag}:${size}`;
  const [answer, setAnswer] = useState<{ key: string; url: string | null } | null>(null);

  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    source
      .thumbnail({ id, contentTag }, size, controller.signal)
      .then((blob) => {
        if (controller.signal.aborted) return;
        objectUrl = blob ? URL.createObjectURL(blob) : null;
        setAnswer({ key, url: objectUrl });
      })
      // A failed thumbnail is the same as none: the icon stays.
      .catch(() => {
        if (!controller.signal.aborted) setAnswer({ key, url: null });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [source, id, contentTag, size, wanted, key]);

  if (!wanted) return { url: null, settled: true };
  return answer?.key === key ? { url: answer.url, settled: true } : { url: null, settled: false };
}
