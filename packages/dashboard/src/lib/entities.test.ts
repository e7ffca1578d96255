import { describe, expect, it } from 'vitest';
import { emailDomainOf, networkOf, pivotHref } from './entities.ts';

describe('entity pivots', () => {
  it('links to the decisions list filtered in the URL', () => {
    expect(pivotHref('ip', '203.0.113.7')).toBe('/dashboard/decisions?ip=203.0.113.7');
    expect(pivotHref('email', 'a+b@x.test')).toBe('/dashboard/decisions?email=a%2Bb%40x.test');
  });

  it('finds the /24 or /64 of an address', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1:2::5')).toBe('2001:db8:1:2::5/64');
    expect(networkOf('')).toBeNull();
    expect(networkOf('localhost')).toBeNull();
  });

  it('finds the domain of an e-mail', () => {
    expect(emailDomainOf('Bob@Example.COM')).toBe('example.com');
    expect(emailDomainOf('nobody')).toBeNull();
    expect(emailDomainOf('trailing@')).toBeNull();
  });
});
