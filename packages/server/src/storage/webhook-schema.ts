/** Tables of the webhooks area (migration 003, owned by the webhooks work). */

/** One webhook endpoint per site. */
export interface WebhooksTable {
  site_id: string;
  url: string;
  /** 0/1 */
  enabled: number;
  /** `whsec_…`: shown to the owner and used as the HMAC key (UTF-8), so it is stored as is. */
  secret: string;
  created_at: number;
  updated_at: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** The outbox: one row per `decision.created` delivery, written in the decision's transaction. */
export interface WebhookDeliveriesTable {
  /** UUID; equal to the payload `id` and the `Service-Delivery` header. */
  id: string;
  site_id: string;
  decision_id: string;
  /** The exact payload bytes (UTF-8 JSON) sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** The last attempt's response body, at most 2 KiB. */
  last_response_body: string | null;
  next_attempt_at: number;
  /** A worker holds the row until this time; an expired lease lets another worker take it. */
  lease_until: number | null;
  lease_owner: string | null;
  /** When the decision was recorded (delivery lag metric). */
  decision_created_at: number;
  created_at: number;
  updated_at: number;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
