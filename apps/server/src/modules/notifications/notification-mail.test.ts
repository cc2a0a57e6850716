import { describe, expect, it } from 'vitest';
import { storageAlertMail } from './notification-mail.ts';

const input = { to: 'ada@example.com', percent: 90, usedBytes: 471859200, limitBytes: 524288000, publicUrl: 'https://drive.example.com' };

describe('storageAlertMail', () => {
  it("writes the sizes in the reader's language", () => {
    expect(storageAlertMail(input, 'en').text).toContain('You are using 450 MB of your 500 MB.');
    expect(storageAlertMail(input, 'fr').text).toContain('Vous utilisez 450 Mo sur vos 500 Mo.');
    expect(storageAlertMail({ ...input, usedBytes: 1610612736 }, 'de').text).toContain('1,5 GB');
  });

  it('links to the plan and usage page', () => {
    expect(storageAlertMail(input, 'en').html).toContain('href="https://drive.example.com/subscription"');
  });
});
