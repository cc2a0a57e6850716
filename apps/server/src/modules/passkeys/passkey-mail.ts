import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { mailMessage, mailTime } from '../../lib/mail-message.ts';

/** The mail that tells the owner a passkey was added, in every language of the interface. */
const TEXT: Record<Language, { subject: string; body: (name: string, at: string) => string[]; link: string }> = {
  en: {
    subject: 'A passkey was added to your CloudVault account',
    body: (name, at) => [
      `A passkey “${name}” was added to your account at ${at}. It signs in to your account without a password until it is removed.`,
      'If this was not you, remove it in Settings, change your password and sign out your other devices.',
    ],
    link: 'Review your passkeys',
  },
  es: {
    subject: 'Se añadió una llave de acceso a tu cuenta de CloudVault',
    body: (name, at) => [
      `Se añadió la llave de acceso «${name}» a tu cuenta el ${at}. Inicia sesión en tu cuenta sin contraseña hasta que la quites.`,
      'Si no fuiste tú, quítala en Configuración, cambia tu contraseña y cierra la sesión en tus otros dispositivos.',
    ],
    link: 'Revisar tus llaves de acceso',
  },
  fr: {
    subject: 'Une clé d’accès a été ajoutée à votre compte CloudVault',
    body: (name, at) => [
      `La clé d’accès « ${name} » a été ajoutée à votre compte le ${at}. Elle connecte à votre compte sans mot de passe jusqu’à ce qu’elle soit supprimée.`,
      'Si ce n’était pas vous, supprimez-la dans les Paramètres, changez votre mot de passe et déconnectez vos autres appareils.',
    ],
    link: 'Vérifier vos clés d’accès',
  },
  de: {
    subject: 'Ihrem CloudVault-Konto wurde ein Passkey hinzugefügt',
    body: (name, at) => [
      `Ihrem Konto wurde am ${at} der Passkey „${name}“ hinzugefügt. Er meldet ohne Passwort bei Ihrem Konto an, bis er entfernt wird.`,
      'Wenn Sie das nicht waren, entfernen Sie ihn in den Einstellungen, ändern Sie Ihr Passwort und melden Sie Ihre anderen Geräte ab.',
    ],
    link: 'Passkeys prüfen',
  },
  zh: {
    subject: '您的 CloudVault 账户添加了通行密钥',
    body: (name, at) => [
      `您的账户已于 ${at} 添加了通行密钥“${name}”。在移除之前，它无需密码即可登录您的账户。`,
      '如果不是您本人操作，请在设置中移除它，修改密码，并让其他设备退出登录。',
    ],
    link: '查看通行密钥',
  },
};

/**
 * Sent whatever the notification settings say, as for app passwords (decision 0037): a
 * stolen session that adds its own passkey keeps a way in after the password changes.
 */
export function passkeyAddedMail(input: { to: string; name: string; at: string; publicUrl: string }, language: Language): MailMessage {
  const text = TEXT[language];
  return mailMessage(input.to, text.subject, text.body(input.name, mailTime(input.at, language)), {
    text: text.link,
    url: `${input.publicUrl}/settings#passkeys`,
  });
}
