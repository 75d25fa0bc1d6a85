import { describe, expect, it } from 'vitest';
import { isAdminHost, mainAppLoginUrl } from './hosts.js';
import { initials } from './initials.js';
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
  });
});
