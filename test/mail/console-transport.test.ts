import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_TRANSPORT_WARNING, createConsoleMailer } from '../../src/mail/console.ts';

const LINK = 'http://localhost:8787/settings/sign-in/link?token=abc123';
const MESSAGE = { to: 'ada@example.com', subject: 'Your sign-in link', text: `Sign in:\n${LINK}\n` };

afterEach(() => vi.restoreAllMocks());

describe('the development transport', () => {
  it('prints the message on stderr as a readable block with the warning, not as a JSON log line', async () => {
    const stderr = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const stdout = vi.spyOn(console, 'log').mockImplementation(() => {});
    await createConsoleMailer({ name: 'Svc', address: 'svc@example.com' }).send(MESSAGE);

    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).toHaveBeenCalledTimes(1);
    const block = String(stderr.mock.calls[0]![0]);
    const lines = block.split('\n');
    expect(lines).toContain(`mail (development transport) -- ${CONSOLE_TRANSPORT_WARNING}`);
    expect(CONSOLE_TRANSPORT_WARNING).toMatch(/NOT sent\. For local development only/);
    expect(lines).toEqual(
      expect.arrayContaining(['From:    "Svc" <svc@example.com>', 'To:      ada@example.com', 'Subject: Your sign-in link', LINK]),
    );
    for (const line of lines) expect(() => JSON.parse(line), line).toThrow();
  });

  it('refuses a recipient with a line break, as the SMTP transports do', async () => {
    const stderr = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(createConsoleMailer(undefined).send({ ...MESSAGE, to: 'ada@example.com\nTo: eve@example.com' })).rejects.toThrow(
      'The recipient is not a plain email address',
    );
    expect(stderr).not.toHaveBeenCalled();
  });
});
