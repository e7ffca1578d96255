import { describe, expect, it } from 'vitest';
import { ipIntelReady, isHostingNetwork, lookupIp } from '../ip-intel.ts';
import { subnetKey } from '../subnet.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { network } from './network.ts';

describe('subnets', () => {
  it('groups IPv4 by /24 and IPv6 by /64', () => {
    expect(subnetKey('203.0.113.77')).toBe('203.0.113.0/24');
    expect(subnetKey('::ffff:203.0.113.77')).toBe('203.0.113.0/24');
    expect(subnetKey('2001:db8:0:12::1')).toBe('2001:db8:0:12::/64');
    expect(subnetKey('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(subnetKey('not an ip')).toBe('');
  });
});

describe('datacenter_ip', () => {
  it('flags hosting networks only', () => {
    expect(network.evaluate(baseFeatures())).toEqual([]);
    const dc = baseFeatures({ ip: { asn: 14061, org: 'DigitalOcean, LLC', country: null, hosting: true } });
    expect(network.evaluate(dc)).toMatchObject([{ rule: 'datacenter_ip', score: 20 }]);
  });
  it('classifies networks by ASN and organisation name', () => {
    expect(isHostingNetwork(16509, 'Amazon.com, Inc.')).toBe(true);
    expect(isHostingNetwork(99999, 'Example Hosting Ltd')).toBe(true);
    expect(isHostingNetwork(7922, 'Comcast Cable Communications, LLC')).toBe(false);
    expect(isHostingNetwork(3320, 'Deutsche Telekom AG')).toBe(false);
  });
  it('looks addresses up offline in the shipped ASN database', async () => {
    await ipIntelReady();
    const aws = lookupIp('3.85.1.2');
    if (aws.asn === null) return; // package not installed: lookups answer unknown
    expect(aws).toMatchObject({ asn: 14618, hosting: true });
    expect(lookupIp('73.1.2.3')).toMatchObject({ asn: 7922, hosting: false });
    expect(lookupIp('2601:1:2:3::1')).toMatchObject({ asn: 7922, hosting: false });
    expect(lookupIp('10.0.0.1').asn).toBeNull();
  }, 20_000);
});
