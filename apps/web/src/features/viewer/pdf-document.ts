import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
// Vite copies the worker into the build and gives its address: pdf.js parses off the main thread.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Bytes per Range request: a page of a large PDF needs a few of them, not the whole file. */
const RANGE_CHUNK_BYTES = 256 * 1024;

/**
 * Opens a PDF by address with pdf.js. It reads by Range requests, fetching only what the
 * pages shown need (no streaming of the rest, no prefetch), and the file never becomes a
 * page of ours. No WebAssembly: the page's CSP does not allow compiling it, and the
 * JavaScript decoders do the same work.
 */
export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  const task = getDocument({
    url: new URL(url, window.location.href).href,
    rangeChunkSize: RANGE_CHUNK_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    useWasm: false,
  });
  return { promise: task.promise, destroy: () => task.destroy() };
}
