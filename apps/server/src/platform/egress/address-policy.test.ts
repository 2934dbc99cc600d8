import { describe, expect, it } from 'vitest';
import {
  allowListWarnings,
  createAddressPolicy,
  isBlockedAddress,
  loopbackWarning,
  parseIp,
  useWarning,
  type EgressUse,
} from './address-policy';

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
    const policy = createAddressPolicy('tool');
    expect(policy.isAddressAllowed('8.8.8.8', 443)).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.1', 80)).toBe(false);
    expect(policy.isHostAllowed('localhost', 80)).toBe(false);
  });

  it('matches hostnames exactly, ignoring case and a trailing dot', () => {
    const policy = createAddressPolicy('tool', ['localhost', 'DB.internal.']);
    expect(policy.isHostAllowed('localhost', 80)).toBe(true);
    expect(policy.isHostAllowed('LOCALHOST.', 8080)).toBe(true);
    expect(policy.isHostAllowed('db.internal', 5432)).toBe(true);
    expect(policy.isHostAllowed('x.db.internal', 80)).toBe(false);
    expect(policy.isHostAllowed('localhost.evil.test', 80)).toBe(false);
    expect(policy.isAddressAllowed('127.0.0.1', 80)).toBe(false);
  });

  it('matches IPs and CIDRs without a port by address, on every port, including the IPv4-mapped form', () => {
    const policy = createAddressPolicy('tool', ['127.0.0.1/32', '10.0.0.0/8', '[::1]', 'fd00::/8']);
    for (const port of [1, 80, 5432, 65535]) {
      expect(policy.isAddressAllowed('127.0.0.1', port)).toBe(true);
      expect(policy.isAddressAllowed('::ffff:127.0.0.1', port)).toBe(true);
      expect(policy.isAddressAllowed('10.200.3.4', port)).toBe(true);
      expect(policy.isAddressAllowed('::1', port)).toBe(true);
      expect(policy.isAddressAllowed('fd12::1', port)).toBe(true);
    }
    expect(policy.isAddressAllowed('127.0.0.2', 80)).toBe(false);
    expect(policy.isAddressAllowed('11.0.0.1', 80)).toBe(true); // public anyway
    expect(policy.isAddressAllowed('192.168.0.1', 80)).toBe(false);
    expect(policy.isAddressAllowed('fe80::1', 80)).toBe(false);
    // An IP entry is an address rule, not a name rule.
    expect(policy.isHostAllowed('127.0.0.1', 80)).toBe(false);
  });

  it('opens only the named port of an ip:port entry, in its IPv4-mapped spelling too', () => {
    const policy = createAddressPolicy('tool', ['127.0.0.1:11434']);
    expect(policy.isAddressAllowed('127.0.0.1', 11434)).toBe(true);
    expect(policy.isAddressAllowed('::ffff:127.0.0.1', 11434)).toBe(true);
    expect(policy.isAddressAllowed('::ffff:7f00:1', 11434)).toBe(true);
    expect(policy.isAddressAllowed('127.0.0.1', 11435)).toBe(false);
    expect(policy.isAddressAllowed('127.0.0.1', 5432)).toBe(false);
    expect(policy.isAddressAllowed('::ffff:127.0.0.1', 5432)).toBe(false);
    expect(policy.isAddressAllowed('::1', 11434)).toBe(false);
    expect(policy.isAddressAllowed('127.0.0.2', 11434)).toBe(false);
  });

  it('reads [::1]:port as an IPv6 address with a port, and bare ::1 as every port', () => {
    const withPort = createAddressPolicy('tool', ['[::1]:11434']);
    expect(withPort.isAddressAllowed('::1', 11434)).toBe(true);
    expect(withPort.isAddressAllowed('0:0:0:0:0:0:0:1', 11434)).toBe(true);
    expect(withPort.isAddressAllowed('::1', 11435)).toBe(false);
    expect(withPort.isAddressAllowed('127.0.0.1', 11434)).toBe(false);
    const bare = createAddressPolicy('tool', ['::1']);
    expect(bare.isAddressAllowed('::1', 1)).toBe(true);
    expect(bare.isAddressAllowed('::1', 65535)).toBe(true);
  });

  it('opens only the named port of a host:port entry', () => {
    const policy = createAddressPolicy('tool', ['db.internal:5432', 'LocalHost.:11434']);
    expect(policy.isHostAllowed('db.internal', 5432)).toBe(true);
    expect(policy.isHostAllowed('db.internal', 5433)).toBe(false);
    expect(policy.isHostAllowed('localhost', 11434)).toBe(true);
    expect(policy.isHostAllowed('localhost', 80)).toBe(false);
  });

  it('opens only the named port of a CIDR with a port, IPv4 and IPv6', () => {
    const policy = createAddressPolicy('tool', ['10.0.0.0/8:5432', '[fd00::/8]:443']);
    expect(policy.isAddressAllowed('10.1.2.3', 5432)).toBe(true);
    expect(policy.isAddressAllowed('::ffff:10.1.2.3', 5432)).toBe(true);
    expect(policy.isAddressAllowed('10.1.2.3', 5433)).toBe(false);
    expect(policy.isAddressAllowed('192.168.1.1', 5432)).toBe(false);
    expect(policy.isAddressAllowed('fd12::1', 443)).toBe(true);
    expect(policy.isAddressAllowed('fd12::1', 80)).toBe(false);
  });

  it('refuses reserved destinations whatever the allow-list says, and only on their port', () => {
    const reserved = {
      isReserved: (hostOrAddress: string, port: number) =>
        port === 5432 && ['127.0.0.1', 'db.internal'].includes(hostOrAddress),
    };
    const policy = createAddressPolicy('tool', ['127.0.0.1', 'db.internal'], reserved);
    expect(policy.isAddressAllowed('127.0.0.1', 5432)).toBe(false);
    expect(policy.isAddressAllowed('127.0.0.1', 5433)).toBe(true);
    expect(policy.isReserved('db.internal', 5432)).toBe(true);
    expect(policy.isReserved('db.internal', 80)).toBe(false);
    expect(createAddressPolicy('tool', ['127.0.0.1']).isReserved('127.0.0.1', 5432)).toBe(false);
  });

  it.each([
    '10.0.0.0/33',
    '::/129',
    'http://localhost',
    'bad host',
    'a/b',
    '10.0.0.0/x',
    '127.0.0.1:0',
    '127.0.0.1:65536',
    '127.0.0.1:http',
    '127.0.0.1:',
    'localhost:-1',
    'db.internal:5432:1',
    '[::1]:0',
    '[::1]:99999',
    '[::1]x',
    '[localhost]:80',
    '10.0.0.0/8:abc',
  ])('refuses the malformed entry %s', (entry) => {
    expect(() => createAddressPolicy('tool', [entry])).toThrow(/Invalid egress allow-list entry/);
  });
});

describe('entries for one use', () => {
  const uses: EgressUse[] = ['model', 'tool', 'webhook', 'database', 'service'];
  const opened = (entry: string, address: string, port: number) =>
    uses.filter((use) => createAddressPolicy(use, [entry]).isAddressAllowed(address, port));

  it('opens an entry with a use to that use only, in every form', () => {
    expect(opened('model:127.0.0.1:11434', '127.0.0.1', 11434)).toEqual(['model']);
    expect(opened('model:127.0.0.1:11434', '127.0.0.1', 11435)).toEqual([]);
    expect(opened('tool:10.0.0.0/8', '10.1.2.3', 443)).toEqual(['tool']);
    expect(opened('webhook:10.0.0.0/8:8080', '10.1.2.3', 8080)).toEqual(['webhook']);
    expect(opened('database:[fd00::/8]:5432', 'fd12::1', 5432)).toEqual(['database']);
    expect(opened('model:[::1]:11434', '::1', 11434)).toEqual(['model']);
    expect(opened('model:::1', '::1', 8080)).toEqual(['model']);
    expect(opened('Model: 127.0.0.1', '::ffff:127.0.0.1', 80)).toEqual(['model']);
  });

  it('opens a host entry with a use to that use only', () => {
    const named = (use: EgressUse) =>
      createAddressPolicy(use, ['database:db.internal:5432', 'tool:api.internal']);
    expect(named('database').isHostAllowed('db.internal', 5432)).toBe(true);
    expect(named('tool').isHostAllowed('db.internal', 5432)).toBe(false);
    expect(named('model').isHostAllowed('db.internal', 5432)).toBe(false);
    expect(named('tool').isHostAllowed('api.internal', 8443)).toBe(true);
    expect(named('webhook').isHostAllowed('api.internal', 8443)).toBe(false);
  });

  it('opens an entry without a use to every use, the product services included', () => {
    expect(opened('127.0.0.1:11434', '127.0.0.1', 11434)).toEqual(uses);
    expect(opened('10.0.0.0/8', '10.1.2.3', 443)).toEqual(uses);
  });

  it('reads a use word followed by a port as the host of that name, as before', () => {
    for (const use of uses) {
      expect(createAddressPolicy(use, ['database:5432']).isHostAllowed('database', 5432)).toBe(true);
      expect(createAddressPolicy(use, ['model:11434']).isHostAllowed('model', 11434)).toBe(true);
    }
    expect(createAddressPolicy('tool', ['database:5432']).isHostAllowed('database', 80)).toBe(false);
  });

  it('keeps public addresses open and reserved destinations shut for every use', () => {
    const reserved = { isReserved: (_host: string, port: number) => port === 5432 };
    for (const use of uses) {
      const policy = createAddressPolicy(use, ['127.0.0.1'], reserved);
      expect(policy.isAddressAllowed('8.8.8.8', 443)).toBe(true);
      expect(policy.isAddressAllowed('127.0.0.1', 5432)).toBe(false);
    }
  });

  it.each([
    'models:127.0.0.1:11434',
    'service:127.0.0.1:11434',
    'tool:',
    'tool:http://10.0.0.1',
    'webhook:10.0.0.0/33',
    'model:127.0.0.1:0',
    'database:db.internal:5432:1',
    'tool:tool:10.0.0.0/8',
  ])('refuses the malformed entry %s, naming the uses', (entry) => {
    expect(() => createAddressPolicy('tool', [entry])).toThrow(
      /Invalid egress allow-list entry .*optionally for one use \(model:, tool:, webhook:, database:\)/,
    );
  });
});

describe('loopbackWarning', () => {
  it.each([
    '127.0.0.1',
    'localhost',
    'LOCALHOST.',
    '::1',
    '[::1]',
    '127.0.0.0/8',
    '0.0.0.0',
    '::ffff:127.0.0.1',
    '0.0.0.0/0',
  ])('warns about %s, which opens every port of this machine', (entry) => {
    const warning = loopbackWarning(['db.internal:5432', entry]);
    expect(warning).toContain(`"${entry}"`);
    expect(warning).toMatch(/opens every port on this machine to every organization's tools/);
    expect(warning).toContain('127.0.0.1:11434');
    expect(warning).not.toContain('db.internal');
  });

  it.each([
    [[]],
    [['127.0.0.1:11434', '[::1]:11434', 'localhost:11434', '127.0.0.0/8:8080']],
    [['10.0.0.0/8', 'db.internal', '192.168.1.20', 'fd00::/8']],
  ])('stays quiet for %j', (allowList) => {
    expect(loopbackWarning(allowList)).toBeUndefined();
  });

  it('names every offending entry once', () => {
    expect(loopbackWarning(['127.0.0.1', 'localhost'])).toMatch(
      /^EGRESS_ALLOW_LIST entries "127.0.0.1", "localhost" open every port on this machine/,
    );
  });
});

describe('useWarning', () => {
  it('names every entry without a use, and what it is open to', () => {
    const warning = useWarning(['model:127.0.0.1:11434', '10.0.0.0/8', 'db.internal:5432']);
    expect(warning).toBe(
      'EGRESS_ALLOW_LIST entries "10.0.0.0/8", "db.internal:5432" name no use, so every organization\'s ' +
        'tools, model connections, webhooks and database tools may reach them alike. Name the use each ' +
        'entry is for, e.g. model:127.0.0.1:11434 for a local Ollama or tool:10.0.0.0/8 for internal APIs.',
    );
    expect(useWarning(['127.0.0.1:11434'])).toMatch(
      /^EGRESS_ALLOW_LIST entry "127.0.0.1:11434" names no use, so .* may reach it alike/,
    );
  });

  it('stays quiet when every entry names its use', () => {
    expect(useWarning([])).toBeUndefined();
    expect(
      useWarning(['model:127.0.0.1:11434', 'tool:10.0.0.0/8', 'database:db.internal:5432']),
    ).toBeUndefined();
  });
});

describe('allowListWarnings', () => {
  it('warns about open local ports to the use an entry names', () => {
    expect(allowListWarnings(['model:127.0.0.1'])).toEqual([
      'EGRESS_ALLOW_LIST entry "model:127.0.0.1" opens every port on this machine to every ' +
        "organization's model connections. Allow only the port you need, e.g. model:127.0.0.1:11434 " +
        'for a local Ollama.',
    ]);
  });

  it('gives both warnings for a bare loopback entry, and none for the narrow form', () => {
    const warnings = allowListWarnings(['127.0.0.1']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(
      "opens every port on this machine to every organization's tools, model connections, webhooks and database tools",
    );
    expect(warnings[1]).toContain('names no use');
    expect(allowListWarnings(['model:127.0.0.1:11434'])).toEqual([]);
  });
});
