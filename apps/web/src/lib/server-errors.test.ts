import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, serverErrorMessage } from './api-client';
import i18n from './i18n';

const apiError = (code: string | undefined, serverMessage: string) =>
  new ApiError(400, serverMessage, code, { error: serverMessage, code }, serverMessage);

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('serverErrorMessage', () => {
  it('translates a known code into the current language', async () => {
    await i18n.changeLanguage('de');
    expect(serverErrorMessage(apiError('WRONG_PASSWORD', 'Current password is incorrect'))).toBe('Das aktuelle Passwort ist falsch');
  });

  it('translates the answers of a node that is busy, draining or without its limit store', async () => {
    await i18n.changeLanguage('fr');
    expect(serverErrorMessage(apiError('LIMITS_UNAVAILABLE', 'This is unavailable for a moment.'))).toBe(
      'Ceci est indisponible pour un instant. Réessayez dans quelques secondes.',
    );
    expect(serverErrorMessage(apiError('SHUTTING_DOWN', 'This server is shutting down.'))).toBe(
      "Ce serveur est en cours d'arrêt. Réessayez.",
    );
  });

  it('shows the server text for an unknown code', async () => {
    await i18n.changeLanguage('de');
    expect(serverErrorMessage(apiError('SOMETHING_NEW', 'Something new went wrong'))).toBe('Something new went wrong');
  });

  it('shows the server text when there is no code', async () => {
    await i18n.changeLanguage('de');
    expect(serverErrorMessage(apiError(undefined, 'Plain server error'))).toBe('Plain server error');
  });

  it('keeps the server text with its figures in English', async () => {
    await i18n.changeLanguage('en');
    const text = 'Not enough storage: 1 MB free of your 5 GB, and this upload needs 2 MB. Delete files, empty Trash or upgrade your plan.';
    expect(serverErrorMessage(apiError('QUOTA_EXCEEDED', text))).toBe(text);
  });

  it('uses the English entry for codes without figures', async () => {
    await i18n.changeLanguage('en');
    expect(serverErrorMessage(apiError('WRONG_PASSWORD', 'server text'))).toBe('Current password is incorrect');
  });

  it('is undefined for errors that are not from the API', () => {
    expect(serverErrorMessage(new Error('boom'))).toBeUndefined();
  });
});
