import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The installed app's Upload shortcut opens /dashboard?upload=1 (the manifest in
 * vite.config.ts): the upload dialog opens at once, and the parameter goes so that a reload
 * or Back does not open it again.
 */
export function useUploadShortcut(openUpload: () => void): void {
  const [params, setParams] = useSearchParams();
  const requested = params.get('upload') === '1';
  useEffect(() => {
    if (!requested) return;
    openUpload();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('upload');
        return next;
      },
      { replace: true },
    );
  }, [requested, openUpload, setParams]);
}
