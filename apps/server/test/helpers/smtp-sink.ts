import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  /** Resolves when `count` messages have arrived (or fails after a few seconds). */
  waitFor(count: number): Promise<ParsedMail[]>;
  /** The first message to `to` whose subject matches, once it has arrived (or fails after a few seconds). */
  waitForMail(to: string, subject: string | RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, parsed. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // smtp-server re-emits each connection's errors on the server: a client that goes away
  // mid-conversation (a node killed in the cluster suite while its mail pool held a connection)
  // is that client's end, not the sink's; without a listener it would be an uncaught error.
  server.on('error', (error: Error & { code?: string }) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error('SMTP sink:', error);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    async waitFor(count) {
      for (let waited = 0; messages.length < count; waited += 20) {
        if (waited > 5000) throw new Error(`expected ${count} messages, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages;
    },
    async waitForMail(to, subject) {
      const matches = (message: ParsedMail) =>
        message.to !== undefined &&
        !Array.isArray(message.to) &&
        message.to.text === to &&
        (typeof subject === 'string' ? message.subject === subject : subject.test(message.subject ?? ''));
      for (let waited = 0; ; waited += 20) {
        const found = messages.find(matches);
        if (found) return found;
        if (waited > 5000) throw new Error(`no mail "${String(subject)}" to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
