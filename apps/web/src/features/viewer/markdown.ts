import MarkdownIt from 'markdown-it';

/**
 * Markdown as HTML with raw HTML switched off: markdown-it escapes every tag in the source,
 * and refuses javascript:, vbscript: and data: links. Images are off too: a README's
 * picture would be fetched from anywhere (the page's CSP would block it anyway).
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).disable('image');

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
