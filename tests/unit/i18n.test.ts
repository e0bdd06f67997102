import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { catalogues, type MessageKey, messagesFor, translator } from '../../src/lib/i18n/index.ts';
import { catalogueOf } from '../../src/lib/i18n/locales.ts';
import { format, scoped } from '../../src/lib/i18n/messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const files = import.meta.glob<Record<string, string>>('../../src/lib/i18n/locales/*/*.json', { eager: true, import: 'default' });
const byCatalogue = (name: string) =>
  Object.entries(files)
    .filter(([path]) => path.includes(`/locales/${name}/`))
    .map(([path, messages]) => [path.split('/').pop()!, messages] as const);

describe('catalogues', () => {
  const english = catalogues.en;

  for (const [name, catalogue] of Object.entries(catalogues)) {
    it(`${name} has exactly the English keys, none empty`, () => {
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, value] of Object.entries(catalogue)) expect(value.trim(), key).not.toBe('');
    });

    it(`${name} uses the same placeholders as English`, () => {
      for (const key of Object.keys(english)) expect(placeholders(catalogue[key]), key).toEqual(placeholders(english[key]));
    });

    it(`${name} has the same feature files as English, with no key defined twice`, () => {
      const own = byCatalogue(name);
      expect(own.map(([file]) => file).sort()).toEqual(
        byCatalogue('en')
          .map(([file]) => file)
          .sort(),
      );
      const keys = own.flatMap(([, messages]) => Object.keys(messages));
      expect(keys.length).toBe(new Set(keys).size);
    });
  }

  it('types the message keys from every English feature file', async () => {
    const keys = (await import('../../src/lib/i18n/keys.ts?raw')).default;
    const typed = [...keys.matchAll(/from '\.\/locales\/en\/([\w-]+\.json)'/g)].map((match) => match[1]).sort();
    expect(typed).toEqual(
      byCatalogue('en')
        .map(([file]) => file)
        .sort(),
    );
  });

  it('translates the Chinese catalogues in their own script', () => {
    expect(catalogues['zh-Hant']['title.accountSettingPage']).not.toBe(catalogues['zh-Hans']['title.accountSettingPage']);
  });
});

describe('translator', () => {
  it('serves each locale from its catalogue and interpolates', () => {
    expect(translator('en')('title.orderListPage')).toBe('My Orders');
    expect(translator('zh-HK')('title.orderListPage')).toBe('我的訂單');
    expect(translator('zh-TW')('title.orderListPage')).toBe('我的訂單');
    expect(translator('zh-CN')('title.orderListPage')).toBe('我的订单');
    expect(translator('en')('card.discount', { percent: 15 })).toBe('15% off');
  });

  it('fills placeholders exactly as i18next does, and leaves plurals, missing values and markup in values to it', () => {
    const i18n = i18next.createInstance();
    i18n.init({
      initAsync: false,
      resources: Object.fromEntries(Object.entries(catalogues).map(([name, messages]) => [name, { translation: messages }])),
      fallbackLng: 'en',
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
    });
    const valueSets: Record<string, string | number>[] = [
      { name: 'Ada', count: 0 },
      { name: 'Ada', count: 1 },
      { name: 'Ada', count: 2 },
      { name: 'Ada', count: 5 },
      { count: '3' },
      { name: 'Ada', city: '香港', amount: 'HK$1,280', percent: 15, keyword: 'a {{name}} b', activity: '$t(site.brand)' },
      { name: 'Ada' },
      {},
    ];
    for (const locale of ['en', 'zh-HK', 'zh-CN'] as const) {
      const t = translator(locale);
      const reference = i18n.getFixedT(catalogueOf(locale));
      // Each key as the catalogue has it, and each plural form's key without its suffix, as pages ask for it.
      const keys = new Set(Object.keys(catalogues.en).flatMap((key) => [key, key.replace(/_(?:zero|one|two|few|many|other)$/, '')]));
      for (const key of keys as Set<MessageKey>) {
        const names = [...(catalogues.en[key] ?? catalogues.en[`${key}_other`] ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(
          ([, name]) => name,
        );
        const all = Object.fromEntries(names.map((name, index) => [name, index % 2 ? `v${index}` : index]));
        for (const params of [all, ...valueSets])
          expect(t(key, params), `${locale} ${key} ${JSON.stringify(params)}`).toBe(reference(key, params));
      }
    }
  });

  it('answers a message asked for without parameters exactly as i18next does', () => {
    for (const locale of ['en', 'zh-HK', 'zh-CN'] as const) {
      const t = translator(locale);
      // Parameters, even none, take the other path (filled in like i18next, as the test above holds it to).
      for (const key of Object.keys(catalogues.en) as MessageKey[]) expect(t(key), `${locale} ${key}`).toBe(t(key, {}));
    }
  });
});

describe('island messages', () => {
  it('picks only the keys with the given prefixes, in the locale', () => {
    const messages = messagesFor('zh-HK', ['card.tag.']);
    expect(Object.keys(messages).sort()).toEqual(['card.tag.booking', 'card.tag.notYetOnSale', 'card.tag.onSale', 'card.tag.soldOut']);
    expect(messages['card.tag.soldOut']).toBe('已售罄');
  });

  it('formats placeholders like the server does', () => {
    const messages = messagesFor('en', ['card.discount']);
    expect(format(messages, 'card.discount', { percent: 20 })).toBe(translator('en')('card.discount', { percent: 20 }));
    // @ts-expect-error a key missing from the catalogue is a type error; forced through, it reads as itself.
    expect(format(messages, 'missing.key')).toBe('missing.key');
    expect(scoped(messages, 'card.')('discount', { percent: 20 })).toBe(format(messages, 'card.discount', { percent: 20 }));
  });

  it('picks the plural form a count calls for, as the server does', () => {
    for (const locale of ['en', 'zh-HK', 'zh-CN'] as const) {
      const messages = messagesFor(locale, ['confirm.quantityValue']);
      for (const count of [1, 2, 0]) {
        expect(format(messages, 'confirm.quantityValue', { count }), `${locale} ${count}`).toBe(
          translator(locale)('confirm.quantityValue', { count }),
        );
      }
    }
    const english = messagesFor('en', ['confirm.quantityValue']);
    expect(format(english, 'confirm.quantityValue', { count: 1 })).toBe('1 ticket');
    expect(format(english, 'confirm.quantityValue', { count: 3 })).toBe('3 tickets');
  });
});

describe('plural forms', () => {
  it('come in pairs, _one and _other, in every catalogue', () => {
    for (const [name, catalogue] of Object.entries(catalogues)) {
      for (const key of Object.keys(catalogue).filter((k) => k.endsWith('_one'))) {
        expect(catalogue, `${name} ${key}`).toHaveProperty([key.replace(/_one$/, '_other')]);
      }
    }
  });
});
