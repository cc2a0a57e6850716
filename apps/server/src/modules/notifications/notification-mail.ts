import type { MailMessage } from '../../adapters/mail/mailer.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

/** A short message in plain text and the same in HTML, with one link. */
function message(to: string, subject: string, lines: string[], link: { text: string; url: string }): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\n${link.text}: ${link.url}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p></body></html>`,
  };
}

export function newSignInMail(input: { to: string; device: string; at: string; publicUrl: string }): MailMessage {
  return message(
    input.to,
    'New sign-in to your CloudVault account',
    [`Your account was signed in to from a device we had not seen before: ${input.device}, at ${input.at}.`, 'If this was you, there is nothing to do. If not, change your password now.'],
    { text: 'Review your security settings', url: `${input.publicUrl}/profile` },
  );
}

export function passwordChangedMail(input: { to: string; at: string; publicUrl: string }): MailMessage {
  return message(
    input.to,
    'Your CloudVault password was changed',
    [`The password of your account was changed at ${input.at}, and every other device was signed out.`, 'If this was not you, reset it at once and contact support.'],
    { text: 'Open your profile', url: `${input.publicUrl}/profile` },
  );
}

export function storageAlertMail(input: { to: string; percent: number; used: string; limit: string; publicUrl: string }): MailMessage {
  return message(
    input.to,
    `Your CloudVault storage is ${input.percent}% full`,
    [`You are using ${input.used} of your ${input.limit}.`, 'Delete files, empty Trash or upgrade your plan to keep uploading.'],
    { text: 'See your plan and usage', url: `${input.publicUrl}/subscription` },
  );
}
