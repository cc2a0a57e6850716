import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@cloudvault/test-support/accounts';
import { startServerWithSmtp } from './helpers/server-with-smtp.ts';
import type { SmtpSink } from './helpers/smtp-sink.ts';
import type { TestServer } from './helpers/test-server.ts';

let server: TestServer;
let smtp: SmtpSink;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, smtp, close } = await startServerWithSmtp());
});
afterAll(() => close());

describe('the mail queue', () => {
  it('sends a message delivered twice (a crash before it was marked sent) with the Message-ID it was given when queued', async () => {
    const { email } = await createUser(server);
    const first = await smtp.waitForMail(email, /.+/);
    await server.container.mail.drain();
    const db = server.container.database.db;
    const queued = await db.selectFrom('mail_queue').selectAll().where('recipient', '=', email).executeTakeFirstOrThrow();
    expect(queued.message_id).toMatch(/^<[A-Za-z0-9_-]+@localhost>$/);
    expect(first.messageId).toBe(queued.message_id);

    // As if the node stopped between the SMTP server's answer and recording it: the row is
    // unsent again, and the sweeper sends it once more when its next attempt is due.
    await db.updateTable('mail_queue').set({ sent_at: null }).where('id', '=', queued.id).execute();
    server.clock.advance(2 * 60 * 1000);
    expect(await server.container.mail.deliverDue()).toBe(1);
    const both = (await smtp.waitFor(2)).filter((mail) => mail.to !== undefined && !Array.isArray(mail.to) && mail.to.text === email);
    expect(both).toHaveLength(2);
    expect(both.map((mail) => mail.messageId)).toEqual([queued.message_id, queued.message_id]);
  });
});
