import { useEffect, useState } from 'react';

/**
 * An object URL for each image among `files` (for its thumbnail), undefined for the others;
 * revoked when the files change or the page goes, so the blobs are not held longer.
 */
export function useImageUrls(files: readonly File[]): ReadonlyArray<string | undefined> {
  const [urls, setUrls] = useState<ReadonlyArray<string | undefined>>([]);
  useEffect(() => {
    const made = files.map((file) => (file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined));
    setUrls(made);
    return () => {
      for (const url of made) if (url) URL.revokeObjectURL(url);
    };
  }, [files]);
  return urls;
}
