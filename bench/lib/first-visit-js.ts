import http from 'node:http';
import type { Browser } from 'playwright-core';

export interface FirstVisitScripts {
  /** Every script the page fetched, with its size as sent with Content-Encoding gzip and br. */
  scripts: { path: string; gzipBytes: number; brotliBytes: number }[];
  gzipBytes: number;
  brotliBytes: number;
}

/** The bytes of one response body as the server sends them for `encoding` (node:http does not decode). */
function encodedSize(url: string, encoding: 'gzip' | 'br'): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
      else if (response.headers['content-encoding'] !== encoding) reject(new Error(`GET ${url} came without Content-Encoding ${encoding}`));
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * What a first visit to `url` downloads as JavaScript: a fresh context (empty cache) loads
 * the page until the network is idle, and every script response (entry, modulepreloads,
 * lazy chunks the page asked for, theme.js) is fetched again with Accept-Encoding gzip
 * and br alone, so the figure is the compressed transfer and does not depend on which
 * encoding Chromium picked.
 */
export async function measureFirstVisitScripts(browser: Browser, url: string): Promise<FirstVisitScripts> {
  const context = await browser.newContext();
  const urls = new Set<string>();
  try {
    const page = await context.newPage();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') urls.add(response.url());
    });
    await page.goto(url, { waitUntil: 'networkidle' });
  } finally {
    await context.close();
  }
  const scripts = await Promise.all(
    [...urls].map(async (scriptUrl) => ({
      path: new URL(scriptUrl).pathname,
      gzipBytes: await encodedSize(scriptUrl, 'gzip'),
      brotliBytes: await encodedSize(scriptUrl, 'br'),
    })),
  );
  scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const sum = (key: 'gzipBytes' | 'brotliBytes') => scripts.reduce((total, script) => total + script[key], 0);
  return { scripts, gzipBytes: sum('gzipBytes'), brotliBytes: sum('brotliBytes') };
}
