import type { MailMessage, Mailer } from '../../adapters/mail/mailer.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { ServiceLog } from '../../lib/service-log.ts';
import type { MailRepository, QueuedMail } from './mail.repository.ts';

/** Waits after the 1st, 2nd, … failed attempt; the last one repeats. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 12 * 60 * 60_000];
/** After this many attempts a message stays in the queue, unsent, for the operator. */
export const MAX_MAIL_ATTEMPTS = 10;

/**
 * Mail is queued first and sent after: a message that fails is logged and retried with
 * growing delays, never lost silently, and never fails the request that wrote it.
 */
export function createMailService(deps: { queue: MailRepository; mailer: Mailer; clock: Clock; log: ServiceLog }) {
  const { queue, mailer, clock, log } = deps;
  /** Attempts started in the background, awaited before the database closes. */
  const inFlight = new Set<Promise<unknown>>();

  async function attempt(mail: QueuedMail): Promise<boolean> {
    const now = clock.now();
    const delay = RETRY_DELAYS_MS[Math.min(mail.attempts, RETRY_DELAYS_MS.length - 1)] as number;
    if (!(await queue.claim(mail.id, mail.attempts, new Date(now.getTime() + delay).toISOString()))) return false;
    try {
      await mailer.send({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        ...(mail.message_id === null ? {} : { messageId: mail.message_id }),
      });
      await queue.markSent(mail.id, clock.now().toISOString());
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await queue.markFailed(mail.id, reason);
      log.error(
        { mail: mail.id, attempt: mail.attempts + 1, err: error },
        `sending mail failed; next attempt in ${Math.round(delay / 60_000)} min`,
      );
      return false;
    }
  }

  return {
    /** Stores the message and tries it at once, in the background. */
    async send(message: MailMessage): Promise<void> {
      const now = clock.now().toISOString();
      const mail: QueuedMail = {
        id: newId(),
        recipient: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        attempts: 0,
        next_attempt_at: now,
        sent_at: null,
        last_error: null,
        created_at: now,
        message_id: mailer.newMessageId(),
      };
      await queue.enqueue(mail);
      const attempting = attempt(mail)
        .catch((error: unknown) => log.error({ err: error, mail: mail.id }, 'mail attempt failed'))
        .finally(() => inFlight.delete(attempting));
      inFlight.add(attempting);
    },

    /** What waits to be sent, for the operator console's health figures. */
    queueDepth: () => queue.depth(),

    /** Waits for background attempts (shutdown); what is unsent stays queued. */
    async drain(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },

    /** The sweeper's turn: every message whose next attempt is due. Answers how many were sent. */
    async deliverDue(): Promise<number> {
      let sent = 0;
      for (const mail of await queue.due(clock.now().toISOString(), MAX_MAIL_ATTEMPTS, 100)) {
        if (await attempt(mail)) sent += 1;
      }
      return sent;
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
