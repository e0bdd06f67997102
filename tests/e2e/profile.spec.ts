import { expect, test, type Page } from '@playwright/test';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { seriousViolations } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

interface Labels {
  prefix: string;
  addAddress: string;
  name: string;
  phone: string;
  district: string;
  wanChai: string;
  street: string;
  save: string;
  areaRequired: string;
  edit: (name: string) => string;
  remove: (name: string) => string;
  noAddresses: string;
  addAttendee: string;
  attendeeName: string;
  nationality: string;
  idType: string;
  idCard: string;
  idNumber: string;
  idInvalid: string;
  noAttendees: string;
}

const english: Labels = {
  prefix: '/en',
  addAddress: 'Add address',
  name: 'Recipient name',
  phone: 'Phone number',
  district: 'District / region',
  wanChai: 'Wan Chai',
  street: 'Street and building',
  save: 'Save',
  areaRequired: 'Please select a receiving area',
  edit: (name) => `Edit ${name}`,
  remove: (name) => `Delete ${name}`,
  noAddresses: 'You have no saved addresses yet.',
  addAttendee: 'Add audience',
  attendeeName: 'Name',
  nationality: 'Nationality',
  idType: 'ID type',
  idCard: 'ID Card',
  idNumber: 'ID number',
  idInvalid: 'Incorrect ID number format',
  noAttendees: 'You have no real-name attendees yet.',
};

const traditional: Labels = {
  prefix: '/zh-HK',
  addAddress: '新增地址',
  name: '收件人姓名',
  phone: '電話號碼',
  district: '區／地區',
  wanChai: '灣仔區',
  street: '街道及大廈',
  save: '保存',
  areaRequired: '請選擇收貨地區',
  edit: (name) => `編輯 ${name}`,
  remove: (name) => `刪除 ${name}`,
  noAddresses: '你還沒有保存任何地址。',
  addAttendee: '新增觀演人',
  attendeeName: '姓名',
  nationality: '國籍',
  idType: '證件類型',
  idCard: '身份證',
  idNumber: '證件號碼',
  idInvalid: '證件號碼格式錯誤',
  noAttendees: '你還沒有實名觀演人。',
};

async function saveForm(page: Page, l: Labels) {
  await page.getByRole('button', { name: l.save }).click();
}

async function manageAddress(page: Page, l: Labels) {
  await page.goto(`${l.prefix}/address/list`);
  await expect(page.getByText(l.noAddresses)).toBeVisible();
  await page.getByRole('link', { name: l.addAddress }).click();
  await expect(page.getByRole('button', { name: l.save })).toBeEnabled();
  await page.getByLabel(l.name).fill('Chan Tai Man');
  await page.getByLabel(l.phone).fill('91234567');
  await page.getByLabel(l.street).fill("1 Queen's Road East");
  await saveForm(page, l);
  await expect(page.getByText(l.areaRequired)).toBeVisible();
  await page.getByLabel(l.district).selectOption({ label: l.wanChai });
  await saveForm(page, l);

  await page.waitForURL(new RegExp(`${l.prefix}/address/list$`));
  const row = page.getByRole('listitem').filter({ hasText: 'Chan Tai Man' });
  await expect(row).toContainText(l.wanChai);
  await expect(row).toContainText('+852 91234567');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('link', { name: l.edit('Chan Tai Man') }).click();
  await expect(page.getByLabel(l.district)).toHaveValue('WC');
  await expect(page.getByRole('button', { name: l.save })).toBeEnabled();
  await page.getByLabel(l.street).fill('8 Harbour Road');
  await saveForm(page, l);
  await expect(page.getByRole('listitem').filter({ hasText: 'Chan Tai Man' })).toContainText('8 Harbour Road');

  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: l.remove('Chan Tai Man') }).click();
  await expect(page.getByText(l.noAddresses)).toBeVisible();
}

async function manageAttendee(page: Page, l: Labels) {
  await page.goto(`${l.prefix}/customer/list`);
  await expect(page.getByText(l.noAttendees)).toBeVisible();
  await page.getByRole('link', { name: l.addAttendee }).click();
  await expect(page.getByRole('button', { name: l.save })).toBeEnabled();
  await page.getByLabel(l.attendeeName, { exact: true }).fill('Chan Tai Man');
  await page.getByLabel(l.nationality).selectOption('HK');
  await page.getByLabel(l.idType).selectOption({ label: l.idCard });
  await page.getByLabel(l.idNumber).fill('A123456(4)');
  await saveForm(page, l);
  await expect(page.getByText(l.idInvalid)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel(l.idNumber).fill('A123456(3)');
  await saveForm(page, l);

  await page.waitForURL(new RegExp(`${l.prefix}/customer/list$`));
  const row = page.getByRole('listitem').filter({ hasText: 'Chan Tai Man' });
  await expect(row).toContainText('A1******3)');
  await expect(page.getByRole('main')).not.toContainText('A123456(3)');

  await page.getByRole('link', { name: l.edit('Chan Tai Man') }).click();
  await expect(page.getByLabel(l.idNumber)).toHaveValue('A123456(3)');
  await expect(page.getByRole('button', { name: l.save })).toBeEnabled();
  await page.getByLabel(l.attendeeName, { exact: true }).fill('Chan Siu Ming');
  await saveForm(page, l);
  await expect(page.getByRole('listitem').filter({ hasText: 'Chan Siu Ming' })).toContainText('A1******3)');

  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: l.remove('Chan Siu Ming') }).click();
  await expect(page.getByText(l.noAttendees)).toBeVisible();
}

for (const labels of [english, traditional]) {
  test(`${labels.prefix}: a buyer adds, edits and deletes an address (Hong Kong district) and a real-name attendee`, async ({ page }) => {
    await signUpByEmail(page.request, `profile${labels.prefix.slice(1)}`);
    await manageAddress(page, labels);
    await manageAttendee(page, labels);
  });
}

test('choosing an address and attendees returns to the same-site page with their ids', async ({ page }) => {
  await signUpByEmail(page.request, 'profile-choose');
  const address = await page.request.post('/api/v1/addresses', {
    data: {
      name: 'Chan Tai Man',
      phoneCountryCode: '+852',
      phone: '91234567',
      countryCode: 'HK',
      district: 'WC',
      street: "1 Queen's Road East",
    },
  });
  const addressId = ((await address.json()) as { data: { id: number } }).data.id;
  const attendee = await page.request.post('/api/v1/attendees', {
    data: { name: 'Lee Ka Yan', nationality: 'JP', idCardType: 'passport', idCardNo: 'TK1234567' },
  });
  const attendeeId = ((await attendee.json()) as { data: { id: number } }).data.id;
  const back = encodeURIComponent('/en/order/confirm?listingId=5');

  await page.goto(`/en/address/list?select=1&return=${back}`);
  await expect(page.getByRole('link', { name: 'Use Chan Tai Man' })).toHaveAttribute(
    'href',
    `/en/order/confirm?listingId=5&addressId=${addressId}`,
  );
  await page.goto(`/en/address_list?select=1&return=${back}`);
  await expect(page.getByRole('heading', { level: 1, name: 'My addresses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Use Chan Tai Man' })).toBeVisible();
  await page.goto(`/en/address/list?select=1&return=${encodeURIComponent('https://evil.example/')}`);
  await expect(page.getByRole('link', { name: 'Use Chan Tai Man' })).toHaveCount(0);

  await page.goto(`/en/customer/list?select=1&need=2&return=${back}`);
  await expect(page.getByText('This event needs 2 real-name attendees.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Please add 1 more attendees.' })).toBeVisible();
  await page.request.post('/api/v1/attendees', {
    data: { name: 'Wong Mei', nationality: 'JP', idCardType: 'passport', idCardNo: 'TK7654321' },
  });
  await page.goto(`/en/customer/list?select=1&need=1&return=${back}`);
  await expect(page.getByRole('status').filter({ hasText: 'Please select 1 more attendees.' })).toBeVisible();
  await page.getByRole('checkbox', { name: /Lee Ka Yan/ }).check();
  await expect(page.getByRole('status').filter({ hasText: 'All 1 attendees selected.' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Wong Mei/ })).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole('link', { name: 'Use selected attendees' })).toHaveAttribute(
    'href',
    `/en/order/confirm?listingId=5&attendeeIds=${attendeeId}`,
  );
});
