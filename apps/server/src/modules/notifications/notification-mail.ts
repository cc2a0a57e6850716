import { formatBytesIn } from '@cloudvault/contract/format';
import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { mailMessage, mailTime } from '../../lib/mail-message.ts';

/** The texts of the notification e-mails, in every language of the interface. */
const TEXT: Record<
  Language,
  {
    newSignIn: { subject: string; body: (device: string, at: string) => string[]; link: string };
    passwordChanged: { subject: string; body: (at: string) => string[]; link: string };
    storage: { subject: (percent: number) => string; body: (used: string, limit: string) => string[]; link: string };
  }
> = {
  en: {
    newSignIn: {
      subject: 'New sign-in to your CloudVault account',
      body: (device, at) => [
        `Your account was signed in to from a device we had not seen before: ${device}, at ${at}.`,
        'If this was you, there is nothing to do. If not, change your password now.',
      ],
      link: 'Review your security settings',
    },
    passwordChanged: {
      subject: 'Your CloudVault password was changed',
      body: (at) => [
        `The password of your account was changed at ${at}, and every other device was signed out.`,
        'If this was not you, reset it at once and contact support.',
      ],
      link: 'Open your profile',
    },
    storage: {
      subject: (percent) => `Your CloudVault storage is ${percent}% full`,
      body: (used, limit) => [
        `You are using ${used} of your ${limit}.`,
        'Delete files, empty Trash or upgrade your plan to keep uploading.',
      ],
      link: 'See your plan and usage',
    },
  },
  es: {
    newSignIn: {
      subject: 'Nuevo inicio de sesión en tu cuenta de CloudVault',
      body: (device, at) => [
        `Se inició sesión en tu cuenta desde un dispositivo que no habíamos visto antes: ${device}, el ${at}.`,
        'Si fuiste tú, no tienes que hacer nada. Si no, cambia tu contraseña ahora.',
      ],
      link: 'Revisar tu configuración de seguridad',
    },
    passwordChanged: {
      subject: 'Se cambió tu contraseña de CloudVault',
      body: (at) => [
        `La contraseña de tu cuenta se cambió el ${at} y se cerró la sesión en todos los demás dispositivos.`,
        'Si no fuiste tú, restablécela enseguida y contacta con soporte.',
      ],
      link: 'Abrir tu perfil',
    },
    storage: {
      subject: (percent) => `Tu almacenamiento de CloudVault está al ${percent}%`,
      body: (used, limit) => [
        `Estás usando ${used} de tus ${limit}.`,
        'Elimina archivos, vacía la papelera o mejora tu plan para seguir subiendo.',
      ],
      link: 'Ver tu plan y tu uso',
    },
  },
  fr: {
    newSignIn: {
      subject: 'Nouvelle connexion à votre compte CloudVault',
      body: (device, at) => [
        `Votre compte a été ouvert depuis un appareil inconnu jusqu’ici : ${device}, le ${at}.`,
        'Si c’était vous, il n’y a rien à faire. Sinon, changez votre mot de passe maintenant.',
      ],
      link: 'Vérifier vos paramètres de sécurité',
    },
    passwordChanged: {
      subject: 'Votre mot de passe CloudVault a été modifié',
      body: (at) => [
        `Le mot de passe de votre compte a été modifié le ${at} et tous les autres appareils ont été déconnectés.`,
        'Si ce n’était pas vous, réinitialisez-le tout de suite et contactez le support.',
      ],
      link: 'Ouvrir votre profil',
    },
    storage: {
      subject: (percent) => `Votre stockage CloudVault est plein à ${percent} %`,
      body: (used, limit) => [
        `Vous utilisez ${used} sur vos ${limit}.`,
        'Supprimez des fichiers, videz la corbeille ou changez de forfait pour continuer à envoyer des fichiers.',
      ],
      link: 'Voir votre forfait et votre utilisation',
    },
  },
  de: {
    newSignIn: {
      subject: 'Neue Anmeldung bei Ihrem CloudVault-Konto',
      body: (device, at) => [
        `Ihr Konto wurde von einem bisher unbekannten Gerät angemeldet: ${device}, am ${at}.`,
        'Wenn Sie das waren, ist nichts zu tun. Wenn nicht, ändern Sie jetzt Ihr Passwort.',
      ],
      link: 'Sicherheitseinstellungen prüfen',
    },
    passwordChanged: {
      subject: 'Ihr CloudVault-Passwort wurde geändert',
      body: (at) => [
        `Das Passwort Ihres Kontos wurde am ${at} geändert, und alle anderen Geräte wurden abgemeldet.`,
        'Wenn Sie das nicht waren, setzen Sie es sofort zurück und wenden Sie sich an den Support.',
      ],
      link: 'Profil öffnen',
    },
    storage: {
      subject: (percent) => `Ihr CloudVault-Speicher ist zu ${percent} % voll`,
      body: (used, limit) => [
        `Sie nutzen ${used} von ${limit}.`,
        'Löschen Sie Dateien, leeren Sie den Papierkorb oder wechseln Sie den Tarif, um weiter hochzuladen.',
      ],
      link: 'Tarif und Nutzung ansehen',
    },
  },
  zh: {
    newSignIn: {
      subject: '您的 CloudVault 账户有新的登录',
      body: (device, at) => [
        `您的账户在一台以前未见过的设备上登录：${device}，时间 ${at}。`,
        '如果是您本人，无需任何操作。如果不是，请立即修改密码。',
      ],
      link: '查看安全设置',
    },
    passwordChanged: {
      subject: '您的 CloudVault 密码已更改',
      body: (at) => [`您的账户密码已于 ${at} 更改，所有其他设备均已退出登录。`, '如果不是您本人操作，请立即重置密码并联系支持。'],
      link: '打开个人资料',
    },
    storage: {
      subject: (percent) => `您的 CloudVault 存储空间已用 ${percent}%`,
      body: (used, limit) => [`您已使用 ${used}，共 ${limit}。`, '请删除文件、清空回收站或升级套餐以继续上传。'],
      link: '查看套餐和用量',
    },
  },
};

export function newSignInMail(input: { to: string; device: string; at: string; publicUrl: string }, language: Language): MailMessage {
  const text = TEXT[language].newSignIn;
  return mailMessage(input.to, text.subject, text.body(input.device, mailTime(input.at, language)), {
    text: text.link,
    url: `${input.publicUrl}/profile`,
  });
}

export function passwordChangedMail(input: { to: string; at: string; publicUrl: string }, language: Language): MailMessage {
  const text = TEXT[language].passwordChanged;
  return mailMessage(input.to, text.subject, text.body(mailTime(input.at, language)), {
    text: text.link,
    url: `${input.publicUrl}/profile`,
  });
}

export function storageAlertMail(
  input: { to: string; percent: number; usedBytes: number; limitBytes: number; publicUrl: string },
  language: Language,
): MailMessage {
  const text = TEXT[language].storage;
  const body = text.body(formatBytesIn(input.usedBytes, language), formatBytesIn(input.limitBytes, language));
  return mailMessage(input.to, text.subject(input.percent), body, { text: text.link, url: `${input.publicUrl}/subscription` });
}
