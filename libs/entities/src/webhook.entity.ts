import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('webhooks')
export class Webhook {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  url: string;

  @Column('jsonb', { default: [] })
  events: string[];

  @Column('text', { nullable: true })
  description: string | null;

  @Column('boolean', { default: true })
  enabled: boolean;

  @Column('text', { nullable: true })
  disabledReason: string | null;

  @Column('text')
  secretEncrypted: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
