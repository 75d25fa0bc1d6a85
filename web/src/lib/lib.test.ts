import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, todayIn } from './format.js';
import { isAdminHost, mainAppLoginUrl, mainAppUrl } from './hosts.js';
import { initials } from './initials.js';
import { createLocalPersister } from './query-persistence.js';
import { deviceClass } from './viewport.js';

describe('initials', () => {
  it('take the first letters of the names, else of the email', () => {
    expect(initials({ first_name: 'noa', last_name: 'Peretz', email: 'x@y.z' })).toBe('NP');
    expect(initials({ first_name: 'Maya', last_name: '', email: 'x@y.z' })).toBe('M');
    expect(initials({ first_name: ' ', last_name: '', email: 'dana@example.com' })).toBe('D');
  });
});

describe('device class', () => {
  it('is mobile at 768 px and below or with ?mobile=true, tablet up to 1024 px', () => {
    expect(deviceClass(768, '')).toBe('mobile');
    expect(deviceClass(769, '')).toBe('tablet');
    expect(deviceClass(1024, '')).toBe('tablet');
    expect(deviceClass(1440, '')).toBe('desktop');
    expect(deviceClass(1440, '?mobile=true')).toBe('mobile');
  });
});

describe('admin hosts', () => {
  it('are the hostnames with admin. or adminapp.', () => {
    expect(isAdminHost('admin.coverdesk.app')).toBe(true);
    expect(isAdminHost('adminapp.coverdesk.app')).toBe(true);
    expect(isAdminHost('coverdesk.app')).toBe(false);
    expect(mainAppLoginUrl({ protocol: 'https:', host: 'admin.coverdesk.app' })).toBe(
      'https://coverdesk.app/login',
    );
    // Two-step sign-in is turned on in the broker app, which the admin host does not serve.
    expect(mainAppUrl({ protocol: 'https:', host: 'adminapp.coverdesk.app' }, '/profile/settings')).toBe(
      'https://coverdesk.app/profile/settings',
    );
    expect(mainAppUrl({ protocol: 'http:', host: 'localhost:8080' }, '/profile/settings')).toBe(
      'http://localhost:8080/profile/settings',
    );
  });
});

describe('money', () => {
  it('is written in the agency currency to the cent the API sent, never rounded', () => {
    expect(formatMoney('1234.50', 'USD')).toBe('$1,234.50');
    expect(formatMoney('1234.50', 'EUR')).toBe('€1,234.50');
    // The yen is written without cents, but an amount that has them keeps them.
    expect(formatMoney('1234.00', 'JPY')).toBe('¥1,234');
    expect(formatMoney('1234.55', 'JPY')).toBe('¥1,234.55');
    // The dinar is written with three decimals; amounts are kept to two.
    expect(formatMoney('10.25', 'KWD')).toMatch(/^KWD\s10\.25$/);
  });
});

describe('dates', () => {
  it('shows a calendar day as that day, west of Greenwich too', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(formatDate('1985-03-01')).toBe(
        new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          Date.UTC(1985, 2, 1),
        ),
      );
      expect(formatDate('1985-03-01')).toMatch(/\b1\b/);
    } finally {
      process.env.TZ = zone;
    }
  });

  it("gives today as the agency's day, wherever the browser is", () => {
    const instant = new Date('2026-11-22T13:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-11-22');
    expect(todayIn('Pacific/Kiritimati', instant)).toBe('2026-11-23');
    expect(todayIn('Pacific/Pago_Pago', instant)).toBe('2026-11-22');
    expect(todayIn('Pacific/Pago_Pago', new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-21');
  });
});

describe('the saved query cache', () => {
  it('is written at once when the page goes away, not only after the pause', () => {
    const saved = new Map<string, string>();
    const storage = { setItem: (key: string, value: string) => saved.set(key, value) } as unknown as Storage;
    const page = new EventTarget();
    const persister = createLocalPersister(storage, page as unknown as Window);
    void persister.persistClient({ timestamp: 1, buster: '1', clientState: { queries: [], mutations: [] } });
    expect(saved.size).toBe(0);
    page.dispatchEvent(new Event('pagehide'));
    expect(saved.size).toBe(1);
  });
});
