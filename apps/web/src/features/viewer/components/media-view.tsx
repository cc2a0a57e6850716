import { useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileSource, ViewableFile } from '../../../lib/file-source';
import { useBytesUrl } from '../hooks/use-bytes-url';
import { ViewerMessage } from './viewer-message';

/**
 * Video and audio in the browser's own player, streamed from the file's address with Range
 * requests (the player asks for what it plays). A signed link lives minutes: when the player
 * fails after playing a while, a new link is asked for once and play goes on where it was.
 */
export function MediaView({ file, source, kind }: { file: ViewableFile; source: FileSource; kind: 'video' | 'audio' }) {
  const { t } = useTranslation();
  const { url, failed, unreachable, renew } = useBytesUrl(source, file.id);
  const resumeAt = useRef<number | null>(null);
  const [renewed, setRenewed] = useState(false);
  const [unplayable, setUnplayable] = useState(false);

  if (failed || unplayable) return <ViewerMessage text={t(unreachable ? 'viewer.unreachable' : 'viewer.mediaFailed')} />;
  if (!url) return <ViewerMessage text={t('viewer.loading')} busy />;

  const common = {
    src: url,
    controls: true,
    preload: 'metadata' as const,
    'aria-label': file.originalName,
    onError: (event: SyntheticEvent<HTMLMediaElement>) => {
      const element = event.currentTarget;
      if (!renewed && element.currentTime > 0) {
        resumeAt.current = element.currentTime;
        setRenewed(true);
        renew();
      } else {
        setUnplayable(true);
      }
    },
    onLoadedMetadata: (event: SyntheticEvent<HTMLMediaElement>) => {
      if (resumeAt.current === null) return;
      event.currentTarget.currentTime = resumeAt.current;
      resumeAt.current = null;
      void event.currentTarget.play().catch(() => {});
    },
  };
  return (
    <div className="relative flex size-full items-center justify-center p-2 sm:p-6">
      {kind === 'video' ? (
        <video {...common} playsInline className="absolute inset-0 m-auto max-h-full max-w-full rounded-lg bg-black shadow-2xl" />
      ) : (
        <audio {...common} className="w-full max-w-xl" />
      )}
    </div>
  );
}
