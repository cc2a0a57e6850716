import { SaxesParser } from 'saxes';
import { AppError, badRequest } from '../../lib/errors.ts';

export const DAV_NS = 'DAV:';

/** An element of a request body, namespaces resolved. */
export interface XmlElement {
  ns: string;
  name: string;
  /** Attributes as serialised XML (` a="v"`), namespace declarations left out. */
  attributes: string;
  children: Array<XmlElement | string>;
}

/** The most a WebDAV request body may hold: property updates and lock requests are small. */
export const MAX_XML_BODY_BYTES = 1024 * 1024;
/** Nesting deeper than this is no property value anyone needs, and costs recursion. */
const MAX_DEPTH = 64;

const malformedXml = (why: string) => badRequest(`The request body is not valid XML: ${why}`, 'DAV_MALFORMED_XML');

/** Escapes text for an XML element or attribute value. */
export function escapeXml(text: string): string {
  // Most names need nothing: a listing of thousands skips the replace.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`) : text;
}
const SPECIAL = /[&<>"']/;

/** Reads a request body up to the bound, before any of it is parsed: a longer one is a 413 before more is read. */
export async function readBoundedBody(body: AsyncIterable<Buffer> | undefined, maxBytes = MAX_XML_BODY_BYTES): Promise<string> {
  if (!body) return '';
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (length > maxBytes)
      throw new AppError(
        413,
        'DAV_BODY_TOO_LARGE',
        `The request body is larger than the ${maxBytes / 1024} KiB this WebDAV request may send`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Parses a request body into elements. saxes checks well-formedness and knows only XML's
 * five predefined entities; a DOCTYPE is refused outright, so no entity is ever declared,
 * expanded or fetched (no XXE, no billion laughs).
 */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('doctype', () => {
    failure ??= new Error('a DOCTYPE is not accepted');
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_DEPTH) {
      failure ??= new Error(`elements nest deeper than ${MAX_DEPTH}`);
      return;
    }
    const attributes = Object.values(tag.attributes)
      .filter((attribute) => attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns')
      .map((attribute, index) =>
        attribute.uri
          ? ` xmlns:a${index}="${escapeXml(attribute.uri)}" a${index}:${attribute.local}="${escapeXml(attribute.value)}"`
          : ` ${attribute.local}="${escapeXml(attribute.value)}"`,
      )
      .join('');
    const element: XmlElement = { ns: tag.uri ?? '', name: tag.local ?? tag.name, attributes, children: [] };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (text) => stack.at(-1)?.children.push(text));
  parser.on('cdata', (text) => stack.at(-1)?.children.push(text));
  try {
    parser.write(text).close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure) throw malformedXml(failure.message.split('\n')[0] ?? 'parse error');
  if (!root) throw malformedXml('no root element');
  return root;
}

/** The element's child elements (whitespace and text between them dropped). */
export const childElements = (element: XmlElement): XmlElement[] =>
  element.children.filter((child): child is XmlElement => typeof child !== 'string');

export const isDav = (element: XmlElement, name: string): boolean => element.ns === DAV_NS && element.name === name;

/** The element's text content. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

/** An element serialised with its own namespace declared, so it reads the same wherever it is put. */
export function serializeElement(element: XmlElement): string {
  const open = `${element.name} xmlns="${escapeXml(element.ns)}"${element.attributes}`;
  if (element.children.length === 0) return `<${open}/>`;
  return `<${open}>${serializeChildren(element)}</${element.name}>`;
}

/** The element's content serialised: text escaped, child elements each with their namespace. */
export function serializeChildren(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? escapeXml(child) : serializeElement(child))).join('');
}
