import { describe, expect, it } from 'vitest';
import { networkOf } from '../../src/limits/network.ts';

/**
 * The network a failed sign-in is counted against (section 8, docs/contract-notes.md "Rate limits"): an IPv4 address as it is,
 * an IPv6 address by its /64, and anything unreadable as the one network `unknown`. Two spellings of one network
 * must give one name, or an attacker gets a fresh counter per spelling; two networks must never share a name,
 * or one client's failures lock out another.
 */
describe('networkOf: IPv4', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['  198.51.100.1 ', '198.51.100.1'],
  ])('%j is its own network %j', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });

  it('keeps two IPv4 hosts apart, even neighbours', () => {
    expect(networkOf('203.0.113.7')).not.toBe(networkOf('203.0.113.8'));
  });
});

describe('networkOf: IPv4-mapped IPv6 counts as its IPv4 address', () => {
  it.each([['::ffff:203.0.113.7'], ['::FFFF:203.0.113.7'], ['[::ffff:203.0.113.7]'], [' ::ffff:203.0.113.7 ']])(
    '%j → 203.0.113.7',
    (address) => {
      expect(networkOf(address)).toBe('203.0.113.7');
    },
  );

  it('so an attacker cannot get a second counter by switching between the two spellings', () => {
    expect(networkOf('::ffff:198.51.100.20')).toBe(networkOf('198.51.100.20'));
  });

  it('the mapped form of another host is another network', () => {
    expect(networkOf('::ffff:203.0.113.8')).not.toBe(networkOf('::ffff:203.0.113.7'));
  });

  it.each([['::ffff:cb00:7107'], ['0:0:0:0:0:ffff:203.0.113.7'], ['0000:0000:0000:0000:0000:ffff:cb00:7107'], ['[::FFFF:CB00:7107]']])(
    '%j, another spelling of ::ffff:203.0.113.7 (RFC 4291 2.5.5.2), is 203.0.113.7 too',
    (address) => {
      expect(networkOf(address)).toBe('203.0.113.7');
    },
  );

  it.each([
    ['2001:db8::ffff:cb00:7107', '2001:0db8:0000:0000::/64'],
    ['::1:ffff:cb00:7107', '0000:0000:0000:0000::/64'],
    ['::fffe:cb00:7107', '0000:0000:0000:0000::/64'],
  ])('%j is not mapped (its first 80 bits are not all zero, or the next 16 not ffff): an IPv6 /64', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });
});

describe('networkOf: IPv6 by its /64, wherever :: falls', () => {
  const prefix = '2001:0db8:0001:0002::/64';

  it.each([
    ['2001:db8:1:2:3:4:5:6', prefix],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', prefix],
    ['2001:db8:1:2::', prefix],
    ['2001:db8:1:2::9', prefix],
    ['2001:db8:1:2:ffff::9', prefix],
    ['2001:db8:1:2:3::4', prefix],
    ['2001:DB8:1:2:A:B:C:D', prefix],
    ['[2001:db8:1:2::9]', prefix],
    ['2001:db8:1:2::9%eth0', prefix],
    ['[2001:db8:1:2::9%25en0]', prefix],
    ['2001:db8::1', '2001:0db8:0000:0000::/64'],
    ['2001:db8::1:2:3:4', '2001:0db8:0000:0000::/64'],
    ['::2001:db8:1:2:3', '0000:0000:0000:2001::/64'],
    ['1:2:3::', '0001:0002:0003:0000::/64'],
    ['1::2:3:4:5:6:7', '0001:0000:0002:0003::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['::', '0000:0000:0000:0000::/64'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000::/64'],
    ['abcd:ef01:2345:6789:abcd:ef01:2345:6789', 'abcd:ef01:2345:6789::/64'],
  ])('%j → %j', (address, network) => {
    expect(networkOf(address)).toBe(network);
  });

  it('keeps two /64s apart when they differ only in the fourth group', () => {
    expect(networkOf('2001:db8:1:2::1')).not.toBe(networkOf('2001:db8:1:3::1'));
  });

  it('keeps an IPv6 /64 apart from the unknown network', () => {
    expect(networkOf('2001:db8:1:2::1')).not.toBe('unknown');
  });
});

describe('networkOf: an unreadable address is the one network `unknown`', () => {
  it.each([
    [undefined],
    [''],
    ['   '],
    ['localhost'],
    ['203.0.113'],
    ['203.0.113.7.1'],
    ['2001:db8:1:2:3:4:5'],
    ['2001:db8:1:2:3:4:5:6:7'],
    ['12345::1'],
    ['2001:db8:1:2:3:4:5:g'],
    [':::'],
    ['[]'],
    ['%eth0'],
    // `::` stands for one or more zero groups and may appear once (RFC 4291 2.2).
    ['2001:db8::1::2'],
    ['1::2::3'],
    ['1:2:3:4::5:6:7:8'],
    ['fe80::[1]'],
    ['2001:db8::1]:1'],
    ['::ffff:203.0.113'],
    ['::ffff:203.0.113.256x'],
  ])('%j', (address) => {
    expect(networkOf(address)).toBe('unknown');
  });
});
