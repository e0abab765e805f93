import { Body, Param, Query } from '@nestjs/common';
import { ApiForbiddenResponse, ApiQuery } from '@nestjs/swagger';
import { ClientMeta, type RequestMeta } from '@gatehouse/identity';
import { type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { AdminController, AdminRoute } from '../common/admin-route';
import { NoFieldsDto } from '../common/no-fields.dto';
import { ApiPageQueries, parsePage } from '@gatehouse/http';
import { QueryReader } from '../common/query-params';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import {
  WebhookDeliveryDetailResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
} from './webhook-delivery.response';
import {
  WebhookCreatedResponse,
  WebhookListResponse,
  WebhookResponse,
  WebhookSecretRotatedResponse,
  WebhookTestQueuedResponse,
} from './webhook.response';
import { WebhooksService } from './webhooks.service';

@AdminController('webhooks', 'v1/admin/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @AdminRoute.create(
    'Create a webhook; its `whsec_…` signing `secret` is returned this once only (201)',
    WebhookCreatedResponse,
  )
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateWebhookDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<WebhookCreatedResponse> {
    return this.webhooks.create(admin, dto, meta);
  }

  @AdminRoute.list("List the tenant's webhooks (paginated, newest first)", WebhookListResponse)
  list(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<WebhookListResponse> {
    return this.webhooks.list(admin, parsePage(query));
  }

  @AdminRoute.get(':id', 'Get a webhook', WebhookResponse)
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<WebhookResponse> {
    return this.webhooks.get(admin, id);
  }

  @AdminRoute.update(
    ':id',
    'Update a webhook (any subset); `enabled: true` re-enables it and clears `disabled_reason`',
    WebhookResponse,
  )
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateWebhookDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<WebhookResponse> {
    return this.webhooks.update(admin, id, dto, meta);
  }

  @AdminRoute.remove(':id', 'Delete a webhook and its delivery records (204)')
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @ClientMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.webhooks.remove(admin, id, meta);
  }

  @AdminRoute.post(
    ':id/test',
    202,
    'Queue a `webhook.test` event for this webhook only (202)',
    WebhookTestQueuedResponse,
  )
  test(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<WebhookTestQueuedResponse> {
    return this.webhooks.test(admin, id, meta);
  }

  @AdminRoute.get(
    ':id/deliveries',
    'List delivery attempts of a webhook (paginated, newest first); `status` and `event_type` filter',
    WebhookDeliveryListResponse,
    ApiPageQueries(),
    ApiQuery({ name: 'status', required: false, enum: ['pending', 'succeeded', 'failed'] }),
    ApiQuery({
      name: 'event_type',
      required: false,
      description: 'Exact event type, e.g. user.created',
    }),
  )
  deliveries(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<WebhookDeliveryListResponse> {
    const r = new QueryReader(query);
    const status = r.string('status', 20);
    if (
      status !== undefined &&
      status !== 'pending' &&
      status !== 'succeeded' &&
      status !== 'failed'
    )
      r.fail('status', 'must be pending, succeeded or failed');
    const eventType = r.string('event_type', 100);
    const page = r.page();
    r.done();
    return this.webhooks.listDeliveries(admin, id, page, {
      status: status as 'pending' | 'succeeded' | 'failed' | undefined,
      eventType,
    });
  }

  @AdminRoute.get(
    ':id/deliveries/:deliveryId',
    "One delivery attempt with the request sent (signature header shown, never the secret), the receiver's answer (first 4 KiB of its body) and why it failed",
    WebhookDeliveryDetailResponse,
  )
  delivery(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDetailResponse> {
    return this.webhooks.getDelivery(admin, id, deliveryId);
  }

  @AdminRoute.post(
    ':id/secret/rotate',
    201,
    {
      summary:
        "Rotate the webhook's signing secret (201 `{secret}`, shown once) ★: for 24 hours every delivery carries both signatures (`v1,<new> v1,<old>`), then the new one only",
      description:
        "Needs the admin's recent proof of identity (403 `reauthentication-required`). Audit `webhook.secret_rotated`.",
    },
    WebhookSecretRotatedResponse,
    ApiForbiddenResponse({ description: '`reauthentication-required`' }),
  )
  rotateSecret(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @ClientMeta() meta: RequestMeta,
  ): Promise<WebhookSecretRotatedResponse> {
    return this.webhooks.rotateSecret(admin, id, meta);
  }

  @AdminRoute.post(
    ':id/deliveries/:deliveryId/redeliver',
    202,
    "Queue a new attempt of a delivery's event with the same `webhook-id` (202)",
    { type: WebhookDeliveryResponse, description: 'The attempt queued' },
  )
  redeliver(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Body() _body: NoFieldsDto,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(admin, id, deliveryId);
  }
}
