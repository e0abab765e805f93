import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestMeta } from '@gatehouse/identity';
import { AdminGuard, type AdminContext } from '../auth/admin.guard';
import { CurrentAdmin } from '../auth/current-admin.decorator';
import { NoFieldsDto } from '../common/no-fields.dto';
import { parsePage } from '../common/pagination';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('v1/admin/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a webhook; its `whsec_…` signing `secret` is returned this once only (201)' })
  create(@CurrentAdmin() admin: AdminContext, @Body() dto: CreateWebhookDto, @Req() req: Request) {
    return this.webhooks.create(admin, dto, requestMeta(req));
  }

  @Get()
  @ApiOperation({ summary: "List the tenant's webhooks (paginated, newest first)" })
  list(@CurrentAdmin() admin: AdminContext, @Query() query: Record<string, unknown>) {
    return this.webhooks.list(admin, parsePage(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook' })
  get(@CurrentAdmin() admin: AdminContext, @Param('id') id: string) {
    return this.webhooks.get(admin, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a webhook (any subset); `enabled: true` re-enables it and clears `disabled_reason`' })
  update(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Body() dto: UpdateWebhookDto, @Req() req: Request) {
    return this.webhooks.update(admin, id, dto, requestMeta(req));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook and its delivery records (204)' })
  async remove(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Req() req: Request): Promise<void> {
    await this.webhooks.remove(admin, id, requestMeta(req));
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue a `webhook.test` event for this webhook only (202)' })
  test(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Body() _body: NoFieldsDto, @Req() req: Request) {
    return this.webhooks.test(admin, id, requestMeta(req));
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'List delivery attempts of a webhook (paginated, newest first)' })
  deliveries(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.webhooks.listDeliveries(admin, id, parsePage(query));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: "Queue a new attempt of a delivery's event with the same `webhook-id` (202)" })
  redeliver(@CurrentAdmin() admin: AdminContext, @Param('id') id: string, @Param('deliveryId') deliveryId: string, @Body() _body: NoFieldsDto) {
    return this.webhooks.redeliver(admin, id, deliveryId);
  }
}
