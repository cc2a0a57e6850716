import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { mailMessage, mailTime } from '../../lib/mail-message.ts';

/** The mail that tells the owner an app password was made, in every language of the interface. */
const TEXT: Record<Language, { subject: string; body: (name: string, at: string) => string[]; link: string }> = {
  en: {
    subject: 'A new app password was created for your CloudVault account',
    body: (name, at) => [
      `A new app password “${name}” was created for your account at ${at}. Devices can sign in with it over WebDAV until it is revoked.`,
      'If this was not you, revoke it in Settings, change your password and sign out your other devices.',
    ],
    link: 'Review your app passwords',
  },
  es: {
    subject: 'Se creó una nueva contraseña de aplicación para tu cuenta de CloudVault',
    body: (name, at) => [
      `Se creó una nueva contraseña de aplicación «${name}» para tu cuenta el ${at}. Los dispositivos pueden iniciar sesión con ella por WebDAV hasta que la revoques.`,
      'Si no fuiste tú, revócala en Configuración, cambia tu contraseña y cierra la sesión en tus otros dispositivos.',
    ],
    link: 'Revisar tus contraseñas de aplicación',
  },
  fr: {
    subject: 'Un nouveau mot de passe d’application a été créé pour votre compte CloudVault',
    body: (name, at) => [
      `Un nouveau mot de passe d’application « ${name} » a été créé pour votre compte le ${at}. Des appareils peuvent se connecter avec lui par WebDAV jusqu’à ce qu’il soit révoqué.`,
      'Si ce n’était pas vous, révoquez-le dans les Paramètres, changez votre mot de passe et déconnectez vos autres appareils.',
    ],
    link: 'Vérifier vos mots de passe d’application',
  },
  de: {
    subject: 'Für Ihr CloudVault-Konto wurde ein neues App-Passwort erstellt',
    body: (name, at) => [
      `Für Ihr Konto wurde am ${at} ein neues App-Passwort „${name}“ erstellt. Geräte können sich damit über WebDAV anmelden, bis es widerrufen wird.`,
      'Wenn Sie das nicht waren, widerrufen Sie es in den Einstellungen, ändern Sie Ihr Passwort und melden Sie Ihre anderen Geräte ab.',
    ],
    link: 'App-Passwörter prüfen',
  },
  zh: {
    subject: '您的 CloudVault 账户创建了新的应用专用密码',
    body: (name, at) => [
      `您的账户已于 ${at} 创建了新的应用专用密码“${name}”。在撤销之前，设备可以用它通过 WebDAV 登录。`,
      '如果不是您本人操作，请在设置中撤销它，修改密码，并让其他设备退出登录。',
    ],
    link: '查看应用专用密码',
  },
};

/** Sent whatever the notification settings say: a stolen session could turn those off first (decision 0037). */
export function appPasswordCreatedMail(
  input: { to: string; name: string; at: string; publicUrl: string },
  language: Language,
): MailMessage {
  const text = TEXT[language];
  return mailMessage(input.to, text.subject, text.body(input.name, mailTime(input.at, language)), {
    text: text.link,
    url: `${input.publicUrl}/settings#devices`,
  });
}
