import { describe, expect, it } from 'vitest';
import { fakeDns } from '../../testing/fake-dns';
import { createReservedDestinations } from './reserved-destinations';

// This machine, as far as these tests know: one LAN address and one IPv6 link-local address.
const interfaceAddresses = () => ['127.0.0.1', '192.168.1.20', 'fe80::1234%eth0'];

describe('reserved destinations', () => {
  it('reserves our own port on every loopback, unspecified and interface address, in every spelling', () => {
    const reserved = createReservedDestinations({ localPorts: [3000], interfaceAddresses });
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0.0.0.0',
      '::',
      '192.168.1.20',
      '::ffff:192.168.1.20',
      'fe80::1234',
    ]) {
      expect(reserved.isReserved(address, 3000), address).toBe(true);
    }
    expect(reserved.isReserved('127.0.0.1', 3001)).toBe(false);
    expect(reserved.isReserved('192.168.1.21', 3000)).toBe(false);
    expect(reserved.isReserved('8.8.8.8', 3000)).toBe(false);
    expect(reserved.isReserved('localhost', 3000)).toBe(false); // a name is judged by what it resolves to
  });

  it('takes ports added later (the port the server really listens on), and ignores port 0', () => {
    const reserved = createReservedDestinations({ localPorts: [0], interfaceAddresses });
    expect(reserved.isReserved('127.0.0.1', 0)).toBe(false);
    expect(reserved.isReserved('127.0.0.1', 41234)).toBe(false);
    reserved.addLocalPort(41234);
    expect(reserved.isReserved('127.0.0.1', 41234)).toBe(true);
  });

  it('reads the interfaces of this machine when none are given', () => {
    const reserved = createReservedDestinations({ localPorts: [3000] });
    expect(reserved.isReserved('127.0.0.1', 3000)).toBe(true);
  });

  it('reserves a database on this machine on every local address (the embedded server)', async () => {
    const reserved = createReservedDestinations({ interfaceAddresses });
    await reserved.addDatabase('postgres://postgres:pw@127.0.0.1:5544/crewline');
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '0.0.0.0', '192.168.1.20']) {
      expect(reserved.isReserved(address, 5544), address).toBe(true);
    }
    expect(reserved.isReserved('127.0.0.1', 5545)).toBe(false);
  });

  it('reserves localhost, a Unix socket and a URL without a host as this machine, default port 5432', async () => {
    const lookup = fakeDns({ localhost: ['::1', '127.0.0.1'] });
    const reserved = createReservedDestinations({ lookup, interfaceAddresses });
    await reserved.addDatabase('postgresql://app@localhost/app');
    await reserved.addDatabase('postgres://app@%2Fvar%2Frun%2Fpostgresql:6000/app');
    await reserved.addDatabase('postgres://app@/app?host=/tmp&port=6001');
    for (const port of [5432, 6000, 6001])
      expect(reserved.isReserved('127.0.0.1', port), `${port}`).toBe(true);
    expect(reserved.isReserved('127.0.0.1', 6002)).toBe(false);
  });

  it('reserves a remote database by name and by the addresses it resolves to at start-up, on its port', async () => {
    const lookup = fakeDns({ 'db.example.test': ['10.0.0.5', '2001:db8::5'] });
    const reserved = createReservedDestinations({ lookup, interfaceAddresses });
    await reserved.addDatabase('postgres://app:secret@DB.example.test:6432/app');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(reserved.isReserved('db.example.test', 6432)).toBe(true);
    expect(reserved.isReserved('DB.EXAMPLE.TEST.', 6432)).toBe(true);
    expect(reserved.isReserved('10.0.0.5', 6432)).toBe(true);
    expect(reserved.isReserved('::ffff:10.0.0.5', 6432)).toBe(true);
    expect(reserved.isReserved('2001:db8:0::5', 6432)).toBe(true);
    expect(reserved.isReserved('10.0.0.5', 5432)).toBe(false);
    expect(reserved.isReserved('db.example.test', 5432)).toBe(false);
    expect(reserved.isReserved('10.0.0.6', 6432)).toBe(false);
    // A remote database does not reserve its port on this machine.
    expect(reserved.isReserved('127.0.0.1', 6432)).toBe(false);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('reserves a database host by name even when it does not resolve at start-up', async () => {
    const reserved = createReservedDestinations({ lookup: fakeDns({}), interfaceAddresses });
    await reserved.addDatabase('postgres://app@db.internal/app');
    expect(reserved.isReserved('db.internal', 5432)).toBe(true);
  });

  it('reserves a database given by IP literal, IPv6 included', async () => {
    const reserved = createReservedDestinations({ lookup: fakeDns({}), interfaceAddresses });
    await reserved.addDatabase('postgres://app@[2001:db8::7]:5433/app');
    await reserved.addDatabase('postgres://app@10.9.8.7/app');
    expect(reserved.isReserved('2001:db8::7', 5433)).toBe(true);
    expect(reserved.isReserved('[2001:db8::7]', 5433)).toBe(true);
    expect(reserved.isReserved('10.9.8.7', 5432)).toBe(true);
    expect(reserved.isReserved('10.9.8.7', 5433)).toBe(false);
  });
});
