/**
 * The local mail viewer: a code sent by SMS and one by email show up at /dev/mail, newest first,
 * in the page's language, and the recipient filter narrows the list to one address.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ownClientAddress, uniqueEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { seriousViolations } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

test('shows the messages the dev outbox kept, newest first, and filters them by recipient', async ({ page }) => {
  const email = uniqueEmail('devmail');
  const phone = String(60_000_000 + Math.floor(Math.random() * 9_999_999));
  expect((await page.request.post('/api/v1/user/mail/regVerify', { data: { email } })).status()).toBe(200);
  expect((await page.request.post('/api/v3/user/sendLoginCode', { data: { channel: 'phone', countryCode: '+852', phone } })).status()).toBe(
    200,
  );

  await page.goto('/en/dev/mail');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages sent' })).toBeVisible();
  const messages = page.locator('.message');
  const sms = messages.filter({ hasText: `+852 ${phone}` });
  const mail = messages.filter({ hasText: email });
  await expect(sms).toContainText('SMS');
  await expect(sms.locator('pre')).toContainText(/\b\d{6}\b/);
  await expect(mail).toContainText('Your TicketWing verification code');
  await expect(mail.locator('pre')).toContainText(/registration code is \d{6}/);
  // A code has no HTML part, so no frame.
  await expect(mail.locator('iframe')).toHaveCount(0);
  // Newest first: the SMS was sent after the email.
  const recipients = await messages.locator('dd a').allTextContents();
  expect(recipients.indexOf(`+852 ${phone}`)).toBeLessThan(recipients.indexOf(email));
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Recipient (email or phone)').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/\/en\/dev\/mail\?to=/);
  await expect(messages).toHaveCount(1);
  await expect(messages.first()).toContainText(email);
  await page.getByRole('link', { name: "Show everyone's" }).click();
  await expect(sms).toBeVisible();

  // An email with an HTML part, as the message consumer stores it: shown in a sandboxed frame, its script inert.
  const buyer = uniqueEmail('devmail-html');
  const html = '<p style="color: #0b6b2e">Order <b>TW-1042</b> is paid.</p><script>document.body.dataset.ran = "yes"</script>';
  // Through the server (its local-only fixture route): a second process writing the file meets workerd's SQLite unlocked.
  await fixture('deliver-email', { id: randomUUID(), to: buyer, subject: 'Payment received', text: 'Order TW-1042 is paid.', html });
  await page.goto(`/en/dev/mail?to=${encodeURIComponent(buyer)}`);
  const frame = messages.first().locator('iframe');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().locator('p')).toHaveText('Order TW-1042 is paid.');
  await expect(frame.contentFrame().locator('body')).not.toHaveAttribute('data-ran');
  await expect(messages.first().locator('pre')).toHaveText('Order TW-1042 is paid.');
  await expect(page.locator('.mail b')).toHaveCount(0);

  await page.goto(`/zh-HK/dev/mail?to=${encodeURIComponent(`+852 ${phone}`)}`);
  await expect(page.getByRole('heading', { level: 1, name: '已發送的訊息' })).toBeVisible();
  await expect(messages).toHaveCount(1);
  await expect(messages.first()).toContainText('短訊');
});
