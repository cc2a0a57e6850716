// Checks that every relative link of the project's Markdown (README.md, docs/, bench/)
// points at a file that exists and, when it names an anchor, at a heading or <a id> there.
// Moving a section between documents breaks links silently; this makes it fail instead.
// Usage: node scripts/check-doc-links.mjs   (exit 1 lists each broken link)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['docs', 'bench'];

function markdownFiles() {
  const files = ['README.md'];
  const walk = (folder) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'results') walk(relative);
      else if (entry.name.endsWith('.md')) files.push(relative);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return files;
}

/** GitHub's anchor of a heading: lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const anchors = new Set();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const heading = /^#+\s+(.*)$/.exec(line);
      if (heading) anchors.add(slug(heading[1]));
      for (const id of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(id[1]);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file);
}

const broken = [];
for (const file of markdownFiles()) {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [linkPath, anchor] = target.split('#');
    const resolved = linkPath ? path.resolve(root, path.dirname(file), linkPath) : path.join(root, file);
    if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
    else if (anchor && statSync(resolved).isFile() && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no such anchor)`);
  }
}

if (broken.length > 0) {
  console.error(broken.join('\n'));
  process.exit(1);
}
console.log('Every relative link in README.md, docs/ and bench/ resolves.');
