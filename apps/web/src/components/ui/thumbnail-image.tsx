import { useState } from 'react';
import { useThumbnail } from '../../hooks/use-thumbnail';
import { cn } from '../../lib/cn';
import type { FileSource, ThumbnailSize, ViewableFile } from '../../lib/file-source';

interface ThumbnailImageProps {
  source: FileSource;
  file: ViewableFile;
  size?: ThumbnailSize;
  /** Where it sits: absolutely over the file's icon, so its arrival moves nothing. */
  className: string;
}

/**
 * A file's thumbnail laid over its icon once it has arrived and decoded; nothing until then
 * (or when the file has none), so the icon shows meanwhile. Decorative: the name is beside it.
 */
export function ThumbnailImage({ source, file, size = 'small', className }: ThumbnailImageProps) {
  const { url } = useThumbnail(source, file, size);
  const [shown, setShown] = useState<string | null>(null);
  if (!url) return null;
  return (
    <img
      src={url}
      alt=""
      draggable={false}
      decoding="async"
      onLoad={() => setShown(url)}
      data-thumbnail={size}
      className={cn('object-cover transition-opacity duration-200', shown === url ? 'opacity-100' : 'opacity-0', className)}
    />
  );
}
