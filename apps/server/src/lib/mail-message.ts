import type { MailMessage } from '../adapters/mail/mailer.ts';
import { escapeHtml } from './html.ts';

/** A short message as plain text and the same as HTML, with one link. */
export function mailMessage(to: string, subject: string, lines: string[], link: { text: string; url: string }): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${link.text}: ${link.url}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p></body></html>`,
  };
}

/** A moment as the reader's language writes it, in UTC (the server does not know their zone). */
export function mailTime(iso: string, language: string): string {
  return `${new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
}
