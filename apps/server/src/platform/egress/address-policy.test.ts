import { describe, expect, it } from 'vitest';
import { createAddressPolicy, isBlockedAddress, parseIp } from './address-policy';

describe('parseIp', () => {
  it('reads every spelling of an IPv6 address to the same bytes', () => {
    const expected = [...new Uint8Array(10), 0xff, 0xff, 127, 0, 0, 1];
    expect([...parseIp('::ffff:127.0.0.1')!]).toEqual(expected);
    expect([...parseIp('::ffff:7f00:1')!]).toEqual(expected);
    expect([...parseIp('0:0:0:0:0:ffff:7f00:0001')!]).toEqual(expected);
    expect([...parseIp('::1')!]).toEqual([...new Uint8Array(15), 1]);
    expect([...parseIp('fe80::1%eth0')!].slice(0, 2)).toEqual([0xfe, 0x80]);
    expect([...parseIp('10.1.2.3')!]).toEqual([10, 1, 2, 3]);
  });

  it('rejects what is not an IP address', () => {
    expect(parseIp('example.com')).toBeUndefined();
    expect(parseIp('999.1.1.1')).toBeUndefined();
    expect(parseIp('')).toBeUndefined();
  });
});

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private /12 end'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.100.100.200', 'Alibaba metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.192', 'Oracle metadata'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:0:a00:1', 'IPv4-translated private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['::127.0.0.1', 'deprecated IPv4-compatible'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['not-an-ip', 'not an address at all'],
  ])('blocks %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows public %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('createAddressPolicy', () => {
  it('allows public addresses and refuses private ones without an allow-list', () => {
    const policy = createAddressPolicy();
    expect(policy.isAddressAllowed('8.8.8.8')).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.1')).toBe(false);
    expect(policy.isHostAllowed('localhost')).toBe(false);
  });

  it('matches hostnames exactly, ignoring case and a trailing dot', () => {
    const policy = createAddressPolicy(['localhost', 'DB.internal.']);
    expect(policy.isHostAllowed('localhost')).toBe(true);
    expect(policy.isHostAllowed('LOCALHOST.')).toBe(true);
    expect(policy.isHostAllowed('db.internal')).toBe(true);
    expect(policy.isHostAllowed('x.db.internal')).toBe(false);
    expect(policy.isHostAllowed('localhost.evil.test')).toBe(false);
    expect(policy.isAddressAllowed('127.0.0.1')).toBe(false);
  });

  it('matches IPs and CIDRs by address, including the IPv4-mapped form', () => {
    const policy = createAddressPolicy(['127.0.0.1/32', '10.0.0.0/8', '[::1]', 'fd00::/8']);
    expect(policy.isAddressAllowed('127.0.0.1')).toBe(true);
    expect(policy.isAddressAllowed('::ffff:127.0.0.1')).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.2')).toBe(false);
    expect(policy.isAddressAllowed('10.200.3.4')).toBe(true);
    expect(policy.isAddressAllowed('11.0.0.1')).toBe(true); // public anyway
    expect(policy.isAddressAllowed('192.168.0.1')).toBe(false);
    expect(policy.isAddressAllowed('::1')).toBe(true);
    expect(policy.isAddressAllowed('fd12::1')).toBe(true);
    expect(policy.isAddressAllowed('fe80::1')).toBe(false);
    // An IP entry is an address rule, not a name rule.
    expect(policy.isHostAllowed('127.0.0.1')).toBe(false);
  });

  it.each(['10.0.0.0/33', '::/129', 'http://localhost', 'bad host', 'a/b', '10.0.0.0/x'])(
    'refuses the malformed entry %s',
    (entry) => {
      expect(() => createAddressPolicy([entry])).toThrow(/Invalid egress allow-list entry/);
    },
  );
});
