import { Column, CreateDateColumn, PrimaryGeneratedColumn } from 'typeorm';

/** The columns a tenant's row starts with: its id, its tenant, and when it was created. */
export abstract class TenantScoped {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** A row of one project of a tenant (users, keys, organizations, tokens). */
export abstract class ProjectScoped extends TenantScoped {
  @Column('uuid')
  projectId: string;
}

/** A row of one user of a project (sessions, passkeys, MFA factors, social identities). */
export abstract class UserScoped extends ProjectScoped {
  @Column('uuid')
  userId: string;
}
