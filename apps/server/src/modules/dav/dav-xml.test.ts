import { describe, expect, it } from 'vitest';
import { parseXml, serializeChildren } from './dav-xml.ts';

describe('parseXml', () => {
  it('resolves namespaces and keeps a property value readable anywhere', () => {
    const root = parseXml('<D:prop xmlns:D="DAV:" xmlns:Z="urn:z"><Z:p a="1"><inner xmlns="urn:i">t &amp; u</inner></Z:p></D:prop>');
    expect(root).toMatchObject({ ns: 'DAV:', name: 'prop' });
    const property = root.children[0];
    expect(typeof property === 'object' && serializeChildren(property)).toBe('<inner xmlns="urn:i">t &#38; u</inner>');
  });

  it('refuses DOCTYPEs, undeclared entities, broken XML and deep nesting', () => {
    const bodies = [
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      '<x>&undeclared;</x>',
      '<x><y></x>',
      '',
      `${'<a>'.repeat(100)}${'</a>'.repeat(100)}`,
    ];
    for (const body of bodies) expect(() => parseXml(body), body.slice(0, 40)).toThrow();
  });
});
