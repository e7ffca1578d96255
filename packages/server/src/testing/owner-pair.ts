import { IpcHotState } from '../cluster/ipc-hot-state.ts';
import { type OwnedServices, serveOwner } from '../cluster/owner.ts';
import { OwnerClient } from '../cluster/owner-client.ts';
import type { Channel } from '../cluster/protocol.ts';

/**
 * A worker's OwnerClient wired to a primary's owner in this process: messages are copied
 * (structured clone, as the cluster channel's "advanced" serialization does) and delivered in a
 * later turn of the event loop, as over IPC.
 */
export function ownerPair(services: OwnedServices): { client: OwnerClient; close: () => void } {
  const toOwner: Array<(m: unknown) => void> = [];
  const toWorker: Array<(m: unknown) => void> = [];
  let open = true;
  const deliver = (handlers: Array<(m: unknown) => void>, message: unknown) => {
    if (!open) throw new Error('IPC channel closed');
    const copy = structuredClone(message);
    setImmediate(() => {
      for (const h of handlers) h(copy);
    });
  };
  const ownerEnd: Channel = { send: (m) => deliver(toWorker, m), onMessage: (h) => toOwner.push(h) };
  const workerEnd: Channel = { send: (m) => deliver(toOwner, m), onMessage: (h) => toWorker.push(h) };
  serveOwner(services, ownerEnd);
  const client = new OwnerClient(workerEnd);
  return {
    client,
    close: () => {
      open = false;
      client.fail();
    },
  };
}

/** A worker's hot state over the channel to `owned` (the primary's in-process store). */
export function ipcHotStateOver(services: OwnedServices): IpcHotState {
  const { client } = ownerPair(services);
  return new IpcHotState(client, services.hotState.remembersSince);
}
