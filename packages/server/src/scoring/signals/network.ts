import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/**
 * Where the address is (offline ASN database, ip-intel.ts): people browse from home, office and
 * mobile networks; scripts and proxies run in hosting and cloud networks. VPN users also exit
 * there, so the signal is moderate and never decides alone.
 */
export const network: SignalFamily = {
  name: 'network',
  rules: {
    datacenter_ip: {
      score: 20,
      description: 'The address belongs to a hosting or cloud provider (datacenter, VPN or proxy exit).',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.ip.hosting) {
      out.push(
        emit(this, 'datacenter_ip', {
          description:
            `The address belongs to AS${f.ip.asn} ${f.ip.org ?? ''}, a hosting or cloud network.`.trim(),
        }),
      );
    }
    return out;
  },
};
