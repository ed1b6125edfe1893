import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { readMailSettings } from '../../src/mail/config.ts';

const SMTP = { SMTP_HOST: 'smtp.example.com', MAIL_FROM: 'svc@example.com' };
const PASSWORD = 'pa55-w0rd-never-shown';

function refusal(env: Record<string, unknown>, fallback?: 'console'): string {
  try {
    readMailSettings(env, fallback);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain(PASSWORD);
    return (error as Error).message;
  }
  throw new Error('the settings were accepted');
}

describe('which transport', () => {
  it('no mail settings: no mailer at all, not the console one', () => {
    expect(readMailSettings({})).toBeUndefined();
    expect(readMailSettings({ MAIL_TRANSPORT: '', SMTP_HOST: ' ' })).toBeUndefined();
  });

  it('SMTP_HOST alone chooses smtp', () => {
    expect(readMailSettings(SMTP)?.transport).toBe('smtp');
  });

  it('MAIL_TRANSPORT=console chooses the development transport, even with SMTP_HOST set', () => {
    expect(readMailSettings({ MAIL_TRANSPORT: 'console' })).toEqual({ transport: 'console', from: undefined });
    expect(readMailSettings({ ...SMTP, MAIL_TRANSPORT: 'Console' })?.transport).toBe('console');
  });

  it('the fallback (npm start --mail-default=console) applies only when the environment chooses nothing', () => {
    expect(readMailSettings({}, 'console')?.transport).toBe('console');
    expect(readMailSettings(SMTP, 'console')?.transport).toBe('smtp');
  });

  it('refuses an unknown MAIL_TRANSPORT', () => {
    expect(refusal({ MAIL_TRANSPORT: 'sendmail' })).toBe('MAIL_TRANSPORT must be smtp or console, got "sendmail".');
  });

  it('refuses smtp settings without SMTP_HOST rather than sending nothing silently', () => {
    expect(refusal({ MAIL_TRANSPORT: 'smtp', MAIL_FROM: 'svc@example.com' })).toContain('MAIL_TRANSPORT=smtp needs SMTP_HOST');
    expect(refusal({ SMTP_USER: 'svc' })).toContain('SMTP_USER is set but SMTP_HOST is not');
    expect(refusal({ SMTP_PASSWORD: PASSWORD }, 'console')).toContain('SMTP_PASSWORD is set but SMTP_HOST is not');
  });
});

describe('SMTP settings', () => {
  it('defaults: port 587 with STARTTLS required, no AUTH', () => {
    expect(readMailSettings(SMTP)).toEqual({
      transport: 'smtp',
      smtp: {
        host: 'smtp.example.com',
        port: 587,
        tls: 'starttls',
        auth: undefined,
        from: { name: undefined, address: 'svc@example.com' },
      },
    });
  });

  it('SMTP_TLS=implicit defaults to port 465; SMTP_PORT overrides, also as a number (Workers [vars])', () => {
    expect(readMailSettings({ ...SMTP, SMTP_TLS: 'implicit' })).toMatchObject({ smtp: { tls: 'implicit', port: 465 } });
    expect(readMailSettings({ ...SMTP, SMTP_PORT: '2525' })).toMatchObject({ smtp: { port: 2525 } });
    expect(readMailSettings({ ...SMTP, SMTP_PORT: 2526 })).toMatchObject({ smtp: { port: 2526 } });
  });

  it.each(['0', '65536', '25a', '-1', '1.5'])('refuses SMTP_PORT=%s', (port) => {
    expect(refusal({ ...SMTP, SMTP_PORT: port })).toBe(`SMTP_PORT must be a whole number from 1 to 65535, got "${port}".`);
  });

  it('refuses an unknown SMTP_TLS', () => {
    expect(refusal({ ...SMTP, SMTP_TLS: 'ssl' })).toBe('SMTP_TLS must be one of starttls, implicit, none, got "ssl".');
  });

  it('refuses an SMTP_HOST that is not a host name or an IP address', () => {
    expect(refusal({ ...SMTP, SMTP_HOST: 'smtp.example.com:587' })).toContain('SMTP_HOST must be a host name or an IP address');
    expect(readMailSettings({ ...SMTP, SMTP_HOST: '::1' })).toMatchObject({ smtp: { host: '::1' } });
  });

  it('SMTP_USER and SMTP_PASSWORD go together; the password is kept as given, spaces included', () => {
    expect(readMailSettings({ ...SMTP, SMTP_USER: 'svc', SMTP_PASSWORD: ` ${PASSWORD} ` })).toMatchObject({
      smtp: { auth: { user: 'svc', password: ` ${PASSWORD} ` } },
    });
    expect(refusal({ ...SMTP, SMTP_USER: 'svc' })).toContain('SMTP_USER is set but SMTP_PASSWORD is not');
    expect(refusal({ ...SMTP, SMTP_PASSWORD: PASSWORD })).toContain('SMTP_PASSWORD is set but SMTP_USER is not');
  });

  it('SMTP_TLS=none: allowed without a password anywhere, with a password only to this machine', () => {
    const auth = { SMTP_USER: 'svc', SMTP_PASSWORD: PASSWORD, SMTP_TLS: 'none' };
    expect(readMailSettings({ ...SMTP, SMTP_TLS: 'none', SMTP_HOST: 'mailpit' })).toMatchObject({ smtp: { tls: 'none', auth: undefined } });
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', 'relay.localhost']) {
      expect(readMailSettings({ ...SMTP, ...auth, SMTP_HOST: host })).toMatchObject({ smtp: { host, tls: 'none' } });
    }
    expect(refusal({ ...SMTP, ...auth })).toBe(
      'SMTP_TLS=none would send SMTP_PASSWORD unencrypted to smtp.example.com: use SMTP_TLS=starttls or implicit, or a relay on this machine (localhost, 127.0.0.1, ::1).',
    );
  });

  it('MAIL_FROM is required with smtp, optional with console, an address or Name <address>', () => {
    expect(refusal({ SMTP_HOST: 'smtp.example.com' })).toContain('MAIL_TRANSPORT=smtp needs MAIL_FROM');
    expect(readMailSettings({ ...SMTP, MAIL_FROM: 'Invoices <billing@example.com>' })).toMatchObject({
      smtp: { from: { name: 'Invoices', address: 'billing@example.com' } },
    });
    expect(readMailSettings({ MAIL_TRANSPORT: 'console', MAIL_FROM: '<svc@example.com>' })).toEqual({
      transport: 'console',
      from: { name: undefined, address: 'svc@example.com' },
    });
  });

  it.each(['svc', 'svc@', 'a b@example.com', '"Svc" <svc@example.com>', 'Svc <svc@example.com', 'svc@example.com\r\nBcc: x@example.com'])(
    'refuses MAIL_FROM=%j',
    (from) => {
      expect(refusal({ ...SMTP, MAIL_FROM: from })).toContain('MAIL_FROM must be address@example.com or Name <address@example.com>');
    },
  );
});
