import type { ClusterDecisions } from '../decisions/cluster-queries.ts';
import type { IdentityService } from '../scoring/identity.ts';
import type { Database } from '../storage/db.ts';
import { currentClusterAccounts } from './cluster-members.ts';
import { type EntityLabelKind, entityLabelsOf, type Label } from './entity-labels.ts';

/** What a decision says about who it was (the columns an entity label is matched on). */
export interface LabelledDecision {
  label: string | null;
  account_id: string;
  device_id: string;
  email: string | null;
  payment_hash: string | null;
  cluster_id?: string | null | undefined;
}

/** The entities a site's labels cover, by the decision column each is matched on. */
export interface EntityCover {
  accounts: string[];
  devices: string[];
  emails: string[];
  payments: string[];
  clusters: string[];
}

/**
 * The labels a backtest or a rule's precision counts: a decision's own label, else the newest label
 * of an entity it belongs to (its account, device, e-mail, payment hash, or an identity cluster
 * that its recorded cluster id names or that its account is a member of now).
 */
export interface LabelResolver {
  labelOf(decision: LabelledDecision): Label | null;
  /**
   * The newest label of an entity the decision belongs to, whatever its own label (the decisions
   * list and export show it: `entityLabel`); null when none applies.
   */
  entityLabelOf(decision: LabelledDecision): AppliedEntityLabel | null;
  /** Empty lists when the site has no entity labels (then only decisions' own labels count). */
  cover: EntityCover;
}

/** An entity label as it applies to a decision: which entity (a cluster for its members) and the label. */
export interface AppliedEntityLabel {
  kind: EntityLabelKind;
  value: string;
  label: Label;
  labeledAt: number;
}

interface Entry {
  label: Label;
  at: number;
  kind: EntityLabelKind;
  value: string;
}

/** What resolving labels reads, in the shape of the process's context (passed as it is). */
export interface LabelDeps {
  readonly database: Pick<Database, 'db'>;
  readonly services: {
    readonly decisions: { readonly clusters: ClusterDecisions };
    readonly identity: IdentityService;
  };
}

/** The site's entity labels, read once, clusters resolved to their current members. */
export async function labelResolver(ctx: LabelDeps, siteId: string): Promise<LabelResolver> {
  const labels = await entityLabelsOf(ctx.database.db, siteId);
  const byKey = new Map<string, Entry>();
  const put = (kind: EntityLabelKind | 'member', value: string, entry: Entry) => {
    const key = `${kind}:${value}`;
    const known = byKey.get(key);
    if (!known || known.at < entry.at) byKey.set(key, entry);
  };
  const members = new Set<string>();
  for (const l of labels) {
    const entry: Entry = { label: l.label, at: l.labeledAt, kind: l.kind, value: l.value };
    put(l.kind, l.value, entry);
    if (l.kind !== 'cluster') continue;
    const accounts = await currentClusterAccounts(
      ctx.services.decisions.clusters,
      ctx.services.identity,
      siteId,
      l.value,
    );
    for (const account of accounts) {
      put('member', account, entry);
      members.add(account);
    }
  }
  const valuesOf = (kind: EntityLabelKind) => labels.filter((l) => l.kind === kind).map((l) => l.value);
  const cover: EntityCover = {
    accounts: [...new Set([...valuesOf('account'), ...members])],
    devices: valuesOf('device'),
    emails: valuesOf('email'),
    payments: valuesOf('payment'),
    clusters: valuesOf('cluster'),
  };
  const entryOf = (d: LabelledDecision): Entry | undefined => {
    if (byKey.size === 0) return undefined;
    const candidates = [
      byKey.get(`account:${d.account_id}`),
      byKey.get(`member:${d.account_id}`),
      d.device_id ? byKey.get(`device:${d.device_id}`) : undefined,
      d.email ? byKey.get(`email:${d.email.toLowerCase()}`) : undefined,
      d.payment_hash ? byKey.get(`payment:${d.payment_hash}`) : undefined,
      d.cluster_id ? byKey.get(`cluster:${d.cluster_id}`) : undefined,
    ];
    let best: Entry | undefined;
    for (const c of candidates) if (c && (!best || c.at > best.at)) best = c;
    return best;
  };
  const labelOf = (d: LabelledDecision): Label | null =>
    d.label === 'fraud' || d.label === 'legit' ? d.label : (entryOf(d)?.label ?? null);
  const entityLabelOf = (d: LabelledDecision): AppliedEntityLabel | null => {
    const entry = entryOf(d);
    return entry ? { kind: entry.kind, value: entry.value, label: entry.label, labeledAt: entry.at } : null;
  };
  return { labelOf, entityLabelOf, cover };
}
