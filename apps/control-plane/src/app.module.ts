import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@gatehouse/config';
import { DatabaseModule } from '@gatehouse/entities';
import { IdentityModule } from '@gatehouse/identity';
import { CoreModule } from '@gatehouse/http';
import { Clock } from '@gatehouse/platform';
import { QueueModule } from '@gatehouse/queue';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ApiResourcesModule } from './api-resources/api-resources.module';
import { AuditModule } from './audit/audit.module';
import { ConsoleModule } from './console/console.module';
import { InvitationsModule } from './invitations/invitations.module';
import { OAuthClientsModule } from './oauth-clients/oauth-clients.module';
import { OrganizationDomainsModule } from './organization-domains/organization-domains.module';
import { SsoConnectionsModule } from './sso-connections/sso-connections.module';
import { OrganizationMembersModule } from './organization-members/organization-members.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { ProjectsModule } from './projects/projects.module';
import { RolesModule } from './roles/roles.module';
import { SigningKeysModule } from './signing-keys/signing-keys.module';
import { StatsModule } from './stats/stats.module';
import { UserTransferModule } from './user-transfer/user-transfer.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The control plane: `/v1/admin/*` for the admin dashboard, plus `/health*`. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, clock),
        DatabaseModule.forRoot(),
        IdentityModule,
        QueueModule.forRoot(),
        ProjectsModule,
        WebhooksModule,
        ApiKeysModule,
        SigningKeysModule,
        UsersModule,
        UserTransferModule,
        OrganizationsModule,
        OrganizationMembersModule,
        OrganizationDomainsModule,
        SsoConnectionsModule,
        InvitationsModule,
        OAuthClientsModule,
        ApiResourcesModule,
        RolesModule,
        AuditModule,
        StatsModule,
        ConsoleModule,
      ],
    };
  }
}
