import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AdminContext, AdminRequest } from './admin.guard';

/** The admin (and so the tenant) the AdminGuard authenticated. */
export const CurrentAdmin = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AdminContext => {
    const admin = ctx.switchToHttp().getRequest<AdminRequest>().admin;
    if (!admin) throw new Error('CurrentAdmin used without AdminGuard');
    return admin;
  },
);
