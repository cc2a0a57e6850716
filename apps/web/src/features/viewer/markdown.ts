import MarkdownIt from 'markdown-it';

/**
 * Markdown as HTML with raw HTML switched off: markdown-it escapes every tag in the source,
 * and refuses javascript:, vbscript: and data: links. Images are off too: a README's
 * picture would be fetched from anywhere (the page's CSP would block it anyway).
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false }).disable('image');

// A link in a file opens in a new tab, which learns nothing of the page it came from.
const renderLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('target', '_blank');
  tokens[index]?.attrSet('rel', 'noopener noreferrer nofollow');
  return renderLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
