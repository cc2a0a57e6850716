import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/** A test server that sends its mail over real SMTP to a sink of its own; `close` stops both. */
export async function startServerWithSmtp(): Promise<{ server: TestServer; smtp: SmtpSink; close(): Promise<void> }> {
  const smtp = await startSmtpSink();
  const server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  return {
    server,
    smtp,
    async close() {
      await server.close();
      await smtp.close();
    },
  };
}
