import type { ShareOwner } from '@cloudvault/contract/shares';
import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { mailMessage } from '../../lib/mail-message.ts';

/** What was shared: the mail names it as a folder or as a file. */
export type SharedItemKind = 'file' | 'folder';

const TEXT: Record<
  Language,
  {
    subject: (sharer: string, folder: string) => string;
    intro: (sharer: string, folder: string) => string;
    open: string;
    register: (email: string) => string;
    note: string;
    /** The same for a file shared on its own. */
    file: { subject: (sharer: string, file: string) => string; intro: (sharer: string, file: string) => string; note: string };
  }
> = {
  en: {
    subject: (sharer, folder) => `${sharer} shared the folder “${folder}” with you`,
    intro: (sharer, folder) => `${sharer} shared the folder “${folder}” with you on CloudVault.`,
    open: 'Open it in CloudVault',
    register: (email) => `Create a free CloudVault account with this e-mail address (${email}) to open it`,
    note: 'You can browse and download it; it stays theirs, and they can stop sharing at any time.',
    file: {
      subject: (sharer, file) => `${sharer} shared the file “${file}” with you`,
      intro: (sharer, file) => `${sharer} shared the file “${file}” with you on CloudVault.`,
      note: 'You can download it; it stays theirs, and they can stop sharing at any time.',
    },
  },
  es: {
    subject: (sharer, folder) => `${sharer} compartió contigo la carpeta «${folder}»`,
    intro: (sharer, folder) => `${sharer} compartió contigo la carpeta «${folder}» en CloudVault.`,
    open: 'Ábrela en CloudVault',
    register: (email) => `Crea una cuenta gratuita de CloudVault con esta dirección (${email}) para abrirla`,
    note: 'Puedes verla y descargarla; sigue siendo suya y pueden dejar de compartirla en cualquier momento.',
    file: {
      subject: (sharer, file) => `${sharer} compartió contigo el archivo «${file}»`,
      intro: (sharer, file) => `${sharer} compartió contigo el archivo «${file}» en CloudVault.`,
      note: 'Puedes descargarlo; sigue siendo suyo y pueden dejar de compartirlo en cualquier momento.',
    },
  },
  fr: {
    subject: (sharer, folder) => `${sharer} a partagé le dossier « ${folder} » avec vous`,
    intro: (sharer, folder) => `${sharer} a partagé le dossier « ${folder} » avec vous sur CloudVault.`,
    open: 'L’ouvrir dans CloudVault',
    register: (email) => `Créez un compte CloudVault gratuit avec cette adresse (${email}) pour l’ouvrir`,
    note: 'Vous pouvez le parcourir et le télécharger ; il reste le sien et le partage peut cesser à tout moment.',
    file: {
      subject: (sharer, file) => `${sharer} a partagé le fichier « ${file} » avec vous`,
      intro: (sharer, file) => `${sharer} a partagé le fichier « ${file} » avec vous sur CloudVault.`,
      note: 'Vous pouvez le télécharger ; il reste le sien et le partage peut cesser à tout moment.',
    },
  },
  de: {
    subject: (sharer, folder) => `${sharer} hat den Ordner „${folder}“ mit Ihnen geteilt`,
    intro: (sharer, folder) => `${sharer} hat den Ordner „${folder}“ auf CloudVault mit Ihnen geteilt.`,
    open: 'In CloudVault öffnen',
    register: (email) => `Erstellen Sie mit dieser Adresse (${email}) ein kostenloses CloudVault-Konto, um ihn zu öffnen`,
    note: 'Sie können ihn ansehen und herunterladen; er gehört weiterhin der teilenden Person, die das Teilen jederzeit beenden kann.',
    file: {
      subject: (sharer, file) => `${sharer} hat die Datei „${file}“ mit Ihnen geteilt`,
      intro: (sharer, file) => `${sharer} hat die Datei „${file}“ auf CloudVault mit Ihnen geteilt.`,
      note: 'Sie können sie herunterladen; sie gehört weiterhin der teilenden Person, die das Teilen jederzeit beenden kann.',
    },
  },
  zh: {
    subject: (sharer, folder) => `${sharer} 与您共享了文件夹“${folder}”`,
    intro: (sharer, folder) => `${sharer} 在 CloudVault 上与您共享了文件夹“${folder}”。`,
    open: '在 CloudVault 中打开',
    register: (email) => `使用此邮箱地址（${email}）免费注册 CloudVault 账户即可打开`,
    note: '您可以浏览和下载；文件夹仍归对方所有，对方可随时停止共享。',
    file: {
      subject: (sharer, file) => `${sharer} 与您共享了文件“${file}”`,
      intro: (sharer, file) => `${sharer} 在 CloudVault 上与您共享了文件“${file}”。`,
      note: '您可以下载；文件仍归对方所有，对方可随时停止共享。',
    },
  },
};

/**
 * The e-mail telling someone a folder (or a file) was shared with them, in their language (or the sharer's for an invitation).
 * An invitation opens registration with the address filled in: the share shows once that address is verified.
 */
export function sharedItemMail(
  input: { to: string; owner: ShareOwner; item: SharedItemKind; itemName: string; publicUrl: string; hasAccount: boolean },
  language: Language,
): MailMessage {
  const text = TEXT[language];
  const words = input.item === 'file' ? text.file : text;
  const sharer = input.owner.lastName ? `${input.owner.firstName} ${input.owner.lastName}` : input.owner.firstName;
  const link = input.hasAccount
    ? { text: text.open, url: `${input.publicUrl}/shared` }
    : { text: text.register(input.to), url: `${input.publicUrl}/register?email=${encodeURIComponent(input.to)}` };
  return mailMessage(input.to, words.subject(sharer, input.itemName), [words.intro(sharer, input.itemName), words.note], link);
}
