import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { createTransport, Transporter } from 'nodemailer';
import { newId } from '../../lib/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A message as it leaves: with the Message-ID it was given when queued, the same on every attempt. */
export interface OutgoingMail extends MailMessage {
  /** `<unique@domain>`; absent for messages queued before ids were kept, which get a new one. */
  messageId?: string;
}

/** Sends one message or throws; retrying is the caller's business (the mail queue). */
export interface Mailer {
  /** Where messages go, for the start-up log: an SMTP host or the outbox folder. */
  readonly describe: string;
  /**
   * A new Message-ID in the sender's domain, given to a message when it is queued, so that
   * a message sent twice (a crash between sending and recording it) can be recognised
   * as one (docs/decisions/0020-running-several-nodes.md).
   */
  newMessageId(): string;
  send(message: OutgoingMail): Promise<void>;
}

const FROM_NAME = 'CloudVault';

/**
 * nodemailer is imported with the first message, not at start-up: it costs about 5 MB of
 * resident memory (3 MB of V8 heap), and a server may send no mail for hours
 * (bench/README.md, "Memory").
 */
function lazyTransport(options: Parameters<typeof createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise every message is written as an
 * .eml file to DATA_DIR/outbox, so a single machine without a mail server loses nothing.
 */
export function createMailer(options: { smtpUrl: string | undefined; outboxDir: string; from: string }): Mailer {
  const from = { name: FROM_NAME, address: options.from };
  const domain = options.from.slice(options.from.lastIndexOf('@') + 1);
  const newMessageId = () => `<${newId()}@${domain}>`;
  if (options.smtpUrl) {
    const transport = lazyTransport(options.smtpUrl);
    return {
      describe: `SMTP ${new URL(options.smtpUrl).host}`,
      newMessageId,
      async send(message) {
        await (await transport()).sendMail({ from, ...message });
      },
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `the outbox folder ${options.outboxDir}`,
    newMessageId,
    async send(message) {
      const info = await (await transport()).sendMail({ from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
      // Written whole under a temporary name, so a reader never sees half a message.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
    },
  };
}
