import { beforeEach, describe, expect, it } from 'vitest';
import { $taker, DEFAULT_CALLING_CODE, loadTaker, TAKER_STORAGE_KEY, updateTaker } from '../../src/lib/browser/checkout.ts';

/** The Storage interface over a Map, as a browser's session storage behaves. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const blank = { name: '', countryCode: DEFAULT_CALLING_CODE, phone: '' };

beforeEach(() => {
  Object.defineProperty(globalThis, 'sessionStorage', { value: new MemoryStorage(), configurable: true });
  $taker.set(blank);
});

describe('ticket taker store', () => {
  it('remembers each change in session storage and takes it back on the next page', () => {
    updateTaker('name', 'Wong Siu Ming');
    updateTaker('phone', '61234567');
    expect(JSON.parse(sessionStorage.getItem(TAKER_STORAGE_KEY)!)).toEqual({
      name: 'Wong Siu Ming',
      countryCode: '+852',
      phone: '61234567',
    });

    $taker.set(blank);
    loadTaker();
    expect($taker.get()).toEqual({ name: 'Wong Siu Ming', countryCode: '+852', phone: '61234567' });
  });

  it('keeps the blank taker when what is stored is not a taker', () => {
    for (const stored of ['not json', '{"name":1}', 'null', '["a"]']) {
      sessionStorage.setItem(TAKER_STORAGE_KEY, stored);
      loadTaker();
      expect($taker.get(), stored).toEqual(blank);
    }
  });

  it('still holds the taker for the page when storage refuses it', () => {
    Object.defineProperty(globalThis, 'sessionStorage', {
      value: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
      },
      configurable: true,
    });
    updateTaker('name', 'Chan');
    expect($taker.get().name).toBe('Chan');
    loadTaker();
    expect($taker.get().name).toBe('Chan');
  });
});
