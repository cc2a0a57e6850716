import type { ShareOwner } from '@cloudvault/contract/shares';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

/** The e-mail telling someone a folder was shared with them (plain text and HTML). */
export function folderSharedMail(input: { to: string; owner: ShareOwner; folderName: string; publicUrl: string; hasAccount: boolean }) {
  const sharer = input.owner.lastName ? `${input.owner.firstName} ${input.owner.lastName}` : input.owner.firstName;
  const link = input.hasAccount ? `${input.publicUrl}/shared` : `${input.publicUrl}/register`;
  const action = input.hasAccount ? 'Open it in CloudVault' : `Create a free CloudVault account with this e-mail address (${input.to}) to open it`;
  const subject = `${sharer} shared the folder “${input.folderName}” with you`;
  const text = `${sharer} shared the folder “${input.folderName}” with you on CloudVault.\n\n${action}:\n${link}\n\nYou can browse and download it; it stays theirs, and they can stop sharing at any time.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p><strong>${escapeHtml(sharer)}</strong> shared the folder <strong>${escapeHtml(input.folderName)}</strong> with you on CloudVault.</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p style="color:#6b7280">You can browse and download it; it stays theirs, and they can stop sharing at any time.</p>
</body></html>`;
  return { to: input.to, subject, text, html };
}
