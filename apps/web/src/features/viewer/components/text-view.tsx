import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileSource, ViewableFile } from '../../../lib/file-source';
import { useFormatSize } from '../../../lib/format-size';
import { useBytesUrl } from '../hooks/use-bytes-url';
import { readTextStart } from '../read-text-start';
import { TEXT_PREVIEW_BYTES } from '../renderer';
import { ViewerMessage } from './viewer-message';

type Loaded = { text: string; complete: boolean; html: string | null };

/**
 * Text and code as escaped text, Markdown rendered without raw HTML: the first
 * TEXT_PREVIEW_BYTES only, saying so when the file is longer. Nothing in the file runs.
 */
export function TextView({ file, source, markdown }: { file: ViewableFile; source: FileSource; markdown: boolean }) {
  const { t } = useTranslation();
  const formatSize = useFormatSize();
  const { url, failed, unreachable } = useBytesUrl(source, file.id);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [readFailed, setReadFailed] = useState(false);

  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    readTextStart(url, TEXT_PREVIEW_BYTES, controller.signal)
      .then(async ({ text, complete }) => {
        // The renderer is its own chunk, loaded for Markdown only.
        const html = markdown ? (await import('../markdown')).renderMarkdown(text) : null;
        if (!controller.signal.aborted) setLoaded({ text, complete, html });
      })
      .catch(() => {
        if (!controller.signal.aborted) setReadFailed(true);
      });
    return () => controller.abort();
  }, [url, markdown]);

  if (failed || readFailed) return <ViewerMessage text={t(unreachable ? 'viewer.unreachable' : 'viewer.textFailed')} />;
  if (!loaded) return <ViewerMessage text={t('viewer.loading')} busy />;
  return (
    <div className="size-full overflow-auto px-2 py-3 sm:px-6 sm:py-6">
      <div className="mx-auto w-full max-w-4xl rounded-card border border-line bg-surface text-ink shadow-popover">
        {!loaded.complete && (
          <p role="note" className="rounded-t-card border-b border-line bg-surface-muted px-4 py-2 text-xs text-ink-muted">
            {t('viewer.textCapped', { shown: formatSize(TEXT_PREVIEW_BYTES), total: formatSize(file.size) })}
          </p>
        )}
        {loaded.html !== null ? (
          // markdown-it's output with raw HTML disabled (../markdown.ts): every tag of the file is escaped text.
          <div data-testid="markdown" className="cv-markdown px-5 py-4 sm:px-8 sm:py-6" dangerouslySetInnerHTML={{ __html: loaded.html }} />
        ) : (
          <pre
            data-testid="text-content"
            className="overflow-x-auto px-4 py-3 font-mono text-[13px] leading-relaxed whitespace-pre-wrap break-words sm:px-6"
          >
            {loaded.text}
          </pre>
        )}
      </div>
    </div>
  );
}
