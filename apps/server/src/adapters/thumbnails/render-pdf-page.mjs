// The first page of a PDF drawn with pdf.js and @napi-rs/canvas (prebuilt Skia), run as a
// child process of its own (pdf-page.ts): pdf.js parses on the thread that calls it, so in
// the server a hostile PDF would stall every request and share the server's heap. Here the
// kernel bounds its memory and CPU, and a kill takes nothing else down.
//
// Plain JavaScript run by Node as it is, without the server's bundle or a TypeScript loader.
// argv: the path of pdfjs-dist's legacy build, then a JSON request (pdf-page.ts). Writes a
// PNG to `target`; prints the peak address space the process mapped, in KiB.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [pdfjsPath, json] = process.argv.slice(2);
const request = JSON.parse(json);
const { getDocument } = await import(pathToFileURL(pdfjsPath).href);

const pdf = await getDocument({
  // Read in ranges from the file as pages need it, never whole into memory.
  url: request.source,
  disableAutoFetch: true,
  disableStream: true,
  // Images larger than this are left out of the drawing rather than decoded.
  maxImageSize: request.maxImagePixels,
  isEvalSupported: false,
  enableXfa: false,
  // Fonts the file does not embed come from pdf.js's own files, never the system's.
  useSystemFonts: false,
  standardFontDataUrl: request.standardFontDataUrl,
  wasmUrl: request.wasmUrl,
  iccUrl: request.iccUrl,
  verbosity: 0,
}).promise;
const page = await pdf.getPage(1);
const { width, height } = page.getViewport({ scale: 1 });
// However large the page claims to be, the canvas is at most side x side.
const viewport = page.getViewport({ scale: request.side / Math.max(width, height, 1) });
const { canvas } = pdf.canvasFactory.create(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
await page.render({ canvas, viewport, background: 'white' }).promise;
writeFileSync(request.target, canvas.toBuffer('image/png'));
process.stdout.write(/VmPeak:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0');
