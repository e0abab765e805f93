import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { NoFieldsDto } from '../common/no-fields.dto';
import { ApiPageQueries, parsePage } from '../common/pagination';
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

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a webhook; its `whsec_…` signing `secret` is returned this once only (201)',
  })
  @ApiCreatedResponse({ type: WebhookCreatedResponse })
  create(
    @CurrentAdmin() admin: AdminContext,
    @Body() dto: CreateWebhookDto,
    @Req() req: Request,
  ): Promise<WebhookCreatedResponse> {
    return this.webhooks.create(admin, dto, requestMeta(req));
  }

  @Get()
  @ApiPageQueries()
  @ApiOperation({ summary: "List the tenant's webhooks (paginated, newest first)" })
  @ApiOkResponse({ type: WebhookListResponse })
  list(
    @CurrentAdmin() admin: AdminContext,
    @Query() query: Record<string, unknown>,
  ): Promise<WebhookListResponse> {
    return this.webhooks.list(admin, parsePage(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook' })
  @ApiOkResponse({ type: WebhookResponse })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string): Promise<WebhookResponse> {
    return this.webhooks.get(admin, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Update a webhook (any subset); `enabled: true` re-enables it and clears `disabled_reason`',
  })
  @ApiOkResponse({ type: WebhookResponse })
  update(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() dto: UpdateWebhookDto,
    @Req() req: Request,
  ): Promise<WebhookResponse> {
    return this.webhooks.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook and its delivery records (204)' })
  async remove(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.webhooks.remove(admin, id, requestMeta(req));
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue a `webhook.test` event for this webhook only (202)' })
  @ApiAcceptedResponse({ type: WebhookTestQueuedResponse })
  test(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @Req() req: Request,
  ): Promise<WebhookTestQueuedResponse> {
    return this.webhooks.test(admin, id, requestMeta(req));
  }

  @Get(':id/deliveries')
  @ApiPageQueries()
  @ApiOperation({
    summary:
      'List delivery attempts of a webhook (paginated, newest first); `status` and `event_type` filter',
  })
  @ApiQuery({ name: 'status', required: false, enum: ['pending', 'succeeded', 'failed'] })
  @ApiQuery({
    name: 'event_type',
    required: false,
    description: 'Exact event type, e.g. user.created',
  })
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
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

  @Get(':id/deliveries/:deliveryId')
  @ApiOperation({
    summary:
      "One delivery attempt with the request sent (signature header shown, never the secret), the receiver's answer (first 4 KiB of its body) and why it failed",
  })
  @ApiOkResponse({ type: WebhookDeliveryDetailResponse })
  delivery(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDetailResponse> {
    return this.webhooks.getDelivery(admin, id, deliveryId);
  }

  @Post(':id/secret/rotate')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Rotate the webhook's signing secret (201 `{secret}`, shown once) ★: for 24 hours every delivery carries both signatures (`v1,<new> v1,<old>`), then the new one only",
    description:
      "Needs the admin's recent proof of identity (403 `reauthentication-required`). Audit `webhook.secret_rotated`.",
  })
  @ApiCreatedResponse({ type: WebhookSecretRotatedResponse })
  @ApiForbiddenResponse({ description: '`reauthentication-required`' })
  rotateSecret(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Body() _body: NoFieldsDto,
    @Req() req: Request,
  ): Promise<WebhookSecretRotatedResponse> {
    return this.webhooks.rotateSecret(admin, id, requestMeta(req));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: "Queue a new attempt of a delivery's event with the same `webhook-id` (202)",
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse, description: 'The attempt queued' })
  redeliver(
    @CurrentAdmin() admin: AdminContext,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @Body() _body: NoFieldsDto,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(admin, id, deliveryId);
  }
}
