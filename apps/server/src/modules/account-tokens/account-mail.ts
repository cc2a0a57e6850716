import type { Language } from '@cloudvault/contract/settings';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { mailMessage } from '../../lib/mail-message.ts';

/** The texts of the mails that carry a link to the account's address, in every language of the interface. */
const TEXT: Record<
  Language,
  {
    verify: { subject: string; body: (firstName: string) => string[]; link: string };
    reset: { subject: string; body: (firstName: string) => string[]; link: string };
  }
> = {
  en: {
    verify: {
      subject: 'Verify your CloudVault e-mail address',
      body: (name) => [
        `Hello ${name},`,
        'Please confirm that this address is yours by opening the link below. It works once, within 48 hours.',
        'Folders shared with this address appear in your account once it is verified. If you did not create a CloudVault account, ignore this message.',
      ],
      link: 'Verify my e-mail address',
    },
    reset: {
      subject: 'Reset your CloudVault password',
      body: (name) => [
        `Hello ${name},`,
        'Somebody asked to reset the password of your CloudVault account. Open the link below to choose a new one. It works once, within 1 hour, and signs out every device.',
        'If this was not you, ignore this message: your password stays as it is.',
      ],
      link: 'Choose a new password',
    },
  },
  es: {
    verify: {
      subject: 'Verifica tu dirección de correo de CloudVault',
      body: (name) => [
        `Hola, ${name}:`,
        'Confirma que esta dirección es tuya abriendo el enlace de abajo. Funciona una sola vez, durante 48 horas.',
        'Las carpetas compartidas con esta dirección aparecerán en tu cuenta una vez verificada. Si no creaste una cuenta de CloudVault, ignora este mensaje.',
      ],
      link: 'Verificar mi dirección de correo',
    },
    reset: {
      subject: 'Restablece tu contraseña de CloudVault',
      body: (name) => [
        `Hola, ${name}:`,
        'Alguien pidió restablecer la contraseña de tu cuenta de CloudVault. Abre el enlace de abajo para elegir una nueva. Funciona una sola vez, durante 1 hora, y cierra la sesión en todos los dispositivos.',
        'Si no fuiste tú, ignora este mensaje: tu contraseña no cambia.',
      ],
      link: 'Elegir una contraseña nueva',
    },
  },
  fr: {
    verify: {
      subject: 'Vérifiez votre adresse e-mail CloudVault',
      body: (name) => [
        `Bonjour ${name},`,
        'Confirmez que cette adresse est la vôtre en ouvrant le lien ci-dessous. Il fonctionne une seule fois, pendant 48 heures.',
        'Les dossiers partagés avec cette adresse apparaîtront dans votre compte une fois celle-ci vérifiée. Si vous n’avez pas créé de compte CloudVault, ignorez ce message.',
      ],
      link: 'Vérifier mon adresse e-mail',
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe CloudVault',
      body: (name) => [
        `Bonjour ${name},`,
        'Quelqu’un a demandé à réinitialiser le mot de passe de votre compte CloudVault. Ouvrez le lien ci-dessous pour en choisir un nouveau. Il fonctionne une seule fois, pendant 1 heure, et déconnecte tous les appareils.',
        'Si ce n’était pas vous, ignorez ce message : votre mot de passe reste inchangé.',
      ],
      link: 'Choisir un nouveau mot de passe',
    },
  },
  de: {
    verify: {
      subject: 'Bestätigen Sie Ihre CloudVault-E-Mail-Adresse',
      body: (name) => [
        `Hallo ${name},`,
        'Bitte bestätigen Sie über den Link unten, dass diese Adresse Ihnen gehört. Er funktioniert einmal, innerhalb von 48 Stunden.',
        'Ordner, die mit dieser Adresse geteilt wurden, erscheinen in Ihrem Konto, sobald sie bestätigt ist. Wenn Sie kein CloudVault-Konto erstellt haben, ignorieren Sie diese Nachricht.',
      ],
      link: 'E-Mail-Adresse bestätigen',
    },
    reset: {
      subject: 'Setzen Sie Ihr CloudVault-Passwort zurück',
      body: (name) => [
        `Hallo ${name},`,
        'Jemand hat verlangt, das Passwort Ihres CloudVault-Kontos zurückzusetzen. Öffnen Sie den Link unten, um ein neues zu wählen. Er funktioniert einmal, innerhalb von 1 Stunde, und meldet alle Geräte ab.',
        'Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
      ],
      link: 'Neues Passwort wählen',
    },
  },
  zh: {
    verify: {
      subject: '验证您的 CloudVault 邮箱地址',
      body: (name) => [
        `${name}，您好：`,
        '请打开下面的链接，确认此邮箱地址属于您。该链接仅可使用一次，48 小时内有效。',
        '邮箱验证后，与此地址共享的文件夹会出现在您的账户中。如果您没有注册 CloudVault 账户，请忽略此邮件。',
      ],
      link: '验证我的邮箱地址',
    },
    reset: {
      subject: '重置您的 CloudVault 密码',
      body: (name) => [
        `${name}，您好：`,
        '有人请求重置您的 CloudVault 账户密码。请打开下面的链接设置新密码。该链接仅可使用一次，1 小时内有效，并会让所有设备退出登录。',
        '如果不是您本人操作，请忽略此邮件：您的密码不会改变。',
      ],
      link: '设置新密码',
    },
  },
};

/** The link that proves the address: `<PUBLIC_URL>/verify-email?token=…` (docs/api.md#email-verification). */
export function verificationMail(
  input: { to: string; firstName: string; token: string; publicUrl: string },
  language: Language,
): MailMessage {
  const text = TEXT[language].verify;
  return mailMessage(input.to, text.subject, text.body(input.firstName), {
    text: text.link,
    url: `${input.publicUrl}/verify-email?token=${input.token}`,
  });
}

/** The link that sets a new password: `<PUBLIC_URL>/reset-password?token=…` (docs/api.md#email-verification). */
export function passwordResetMail(
  input: { to: string; firstName: string; token: string; publicUrl: string },
  language: Language,
): MailMessage {
  const text = TEXT[language].reset;
  return mailMessage(input.to, text.subject, text.body(input.firstName), {
    text: text.link,
    url: `${input.publicUrl}/reset-password?token=${input.token}`,
  });
}
