import { describe, expect, it } from 'vitest';
import { IpIntel, isHostingNetwork } from '../ip-intel.ts';
import { subnetKey } from '../subnet.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { network, timezoneFitsCountry } from './network.ts';

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
  it('looks addresses up offline in the shipped ASN and country databases', async () => {
    const intel = new IpIntel();
    await intel.ready();
    const lookupIp = (ip: string) => intel.lookup(ip);
    expect(lookupIp('3.85.1.2')).toMatchObject({ asn: 14618, country: 'US', hosting: true });
    expect(lookupIp('73.1.2.3')).toMatchObject({ asn: 7922, country: 'US', hosting: false });
    expect(lookupIp('2601:1:2:3::1')).toMatchObject({ asn: 7922, country: 'US', hosting: false });
    expect(lookupIp('91.2.3.4')).toMatchObject({ asn: 3320, country: 'DE' });
    expect(lookupIp('::ffff:86.1.2.3')).toMatchObject({ country: 'GB' });
    expect(lookupIp('2a01:e0a::1')).toMatchObject({ country: 'FR' });
    expect(lookupIp('10.0.0.1')).toMatchObject({ asn: null, country: null });
    // Documentation and other special ranges lie inside registry delegations but belong to no one.
    expect(lookupIp('203.0.113.7')).toMatchObject({ asn: null, country: null });
    expect(lookupIp('2001:db8::1')).toMatchObject({ asn: null, country: null });
  }, 20_000);
});

describe('timezone_country_mismatch', () => {
  const at = (country: string, timezone: string, hosting = false) =>
    baseFeatures({ timezone, ip: { asn: 1, org: 'ISP', country, hosting } });
  it('fits a zone to its country and to neighbours that keep the same clock', () => {
    expect(timezoneFitsCountry('Europe/Berlin', 'DE')).toBe(true);
    expect(timezoneFitsCountry('Europe/Paris', 'BE')).toBe(true);
    expect(timezoneFitsCountry('America/Chicago', 'US')).toBe(true);
    expect(timezoneFitsCountry('Asia/Shanghai', 'US')).toBe(false);
    expect(timezoneFitsCountry('America/New_York', 'DE')).toBe(false);
    // Unknown or country-less zones decide nothing.
    expect(timezoneFitsCountry('UTC', 'US')).toBeNull();
    expect(timezoneFitsCountry('Mars/Olympus', 'US')).toBeNull();
  });
  it('flags a residential address whose country keeps another clock than the browser', () => {
    expect(network.evaluate(at('US', 'America/Los_Angeles'))).toEqual([]);
    expect(network.evaluate(at('US', 'Asia/Ho_Chi_Minh'))).toMatchObject([
      { rule: 'timezone_country_mismatch', score: 15 },
    ]);
    // A hosting exit is scored as such; its country says nothing about the person.
    expect(network.evaluate(at('US', 'Asia/Ho_Chi_Minh', true)).map((s) => s.rule)).toEqual([
      'datacenter_ip',
    ]);
    // No time zone (a backend call without evidence): nothing.
    expect(network.evaluate(at('US', ''))).toEqual([]);
  });
});
