import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('Markdown in the viewer', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script|<img/);
  });

  it('refuses javascript: links and opens others in a new tab that cannot reach back', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('href');
    expect(renderMarkdown('[site](https://example.com)')).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>',
    );
  });

  it('shows no pictures: an image is its text', () => {
    expect(renderMarkdown('![alt](https://example.com/a.png)')).not.toContain('<img');
  });
});
