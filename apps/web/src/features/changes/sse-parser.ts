/**
 * The few lines of the server-sent events format (WHATWG HTML, "Server-sent events") the
 * change stream needs, for a body read through fetch: EventSource cannot send the bearer
 * header. Chunks may cut a line, a field or a CRLF anywhere; events come out whole.
 */

/** One dispatched event. `id` is the event's own `id:` field, when it had one. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds decoded text; answers the events it completed. */
  push(text: string): SseEvent[];
}

export function createSseParser(): SseParser {
  let pending = '';
  let started = false;
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  const field = (line: string, out: SseEvent[]) => {
    if (line === '') {
      // A blank line ends the event; one without data is dropped, as the standard says.
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
      event = '';
      data = [];
      id = undefined;
      return;
    }
    if (line.startsWith(':')) return; // a comment (the server's keep-alive)
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') event = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields: the stream's own backoff decides when to reconnect.
  };

  return {
    push(text) {
      pending += text;
      if (!started && pending.length > 0) {
        started = true;
        if (pending.startsWith('\uFEFF')) pending = pending.slice(1);
      }
      // The LF of a CRLF whose CR ended the last chunk: that line has ended already.
      if (afterCr && pending.length > 0) {
        if (pending.startsWith('\n')) pending = pending.slice(1);
        afterCr = false;
      }
      const out: SseEvent[] = [];
      let start = 0;
      for (let i = 0; i < pending.length; i++) {
        const char = pending[i];
        if (char !== '\n' && char !== '\r') continue;
        field(pending.slice(start, i), out);
        if (char === '\r') {
          if (i === pending.length - 1) afterCr = true;
          else if (pending[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      pending = pending.slice(start);
      return out;
    },
  };
}
