import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse-parser';

const page = {
  changes: [{ op: 'created', kind: 'file', id: 'f1', parentId: null, name: 'a.txt', at: '2026-12-06T10:00:00.000Z' }],
  cursor: 'c2',
  hasMore: false,
};
const stream = `: connected\n\nid: c2\nevent: changes\ndata: ${JSON.stringify(page)}\n\n: keep-alive\n\nevent: reset\ndata: {"error":"expired","code":"CURSOR_EXPIRED"}\n\n`;

describe('server-sent events parser', () => {
  it('reads the change stream as the server writes it: comments skipped, each event with its id, name and data', () => {
    const events = createSseParser().push(stream);
    expect(events).toEqual([
      { event: 'changes', id: 'c2', data: JSON.stringify(page) },
      { event: 'reset', data: '{"error":"expired","code":"CURSOR_EXPIRED"}' },
    ]);
    expect(JSON.parse(events[0]!.data)).toEqual(page);
  });

  it('gives the same events however the bytes are cut, one character at a time included', () => {
    const whole = createSseParser().push(stream);
    for (const size of [1, 2, 3, 7, 64]) {
      const parser = createSseParser();
      const events = [];
      for (let i = 0; i < stream.length; i += size) events.push(...parser.push(stream.slice(i, i + size)));
      expect(events).toEqual(whole);
    }
  });

  it('ends lines at CRLF and CR too, even with a CRLF cut between two chunks', () => {
    const parser = createSseParser();
    expect(parser.push('event: changes\r\ndata: one\r')).toEqual([]);
    expect(parser.push('\ndata: two\r\r')).toEqual([{ event: 'changes', data: 'one\ntwo' }]);
    expect(parser.push('data:three\r')).toEqual([]);
    expect(parser.push('')).toEqual([]);
    expect(parser.push('\n\n')).toEqual([{ event: 'message', data: 'three' }]);
  });

  it('keeps an event unfinished until its blank line, and drops one without data', () => {
    const parser = createSseParser();
    expect(parser.push('\uFEFFevent: changes\ndata: {"a":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'changes', data: '{"a":1}' }]);
    expect(parser.push('event: ping\nid: 9\n\n')).toEqual([]);
    // The name and id of a dropped event do not leak into the next one.
    expect(parser.push('data: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('takes one space after the colon off, no more, and a field without a colon as empty', () => {
    const parser = createSseParser();
    expect(parser.push('data:  two spaces\ndata\n\n')).toEqual([{ event: 'message', data: ' two spaces\n' }]);
  });
});
