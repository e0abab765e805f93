import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Roles and permissions per project (docs/api-contract.md §14): the permission catalog, custom
 * roles (and the stored changes of the built-in `admin` and `member`), and member and invitation
 * roles that name any role key of the project instead of only `admin` or `member`.
 */
export class ProjectRoles1795308000000 implements MigrationInterface {
  name = 'ProjectRoles1795308000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE project_permissions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      key text NOT NULL CHECK (key ~ '^[a-z0-9_-]+:[a-z0-9_.-]+$' AND length(key) <= 64),
      description text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT project_permissions_project_key_key UNIQUE (project_id, key)
    )`);
    await q.query(`CREATE TABLE project_roles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      key text NOT NULL CHECK (key ~ '^[a-z0-9_-]{1,40}$'),
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      permissions text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT project_roles_project_key_key UNIQUE (project_id, key)
    )`);
    // "Which roles grant this permission" (a permission's deletion is refused while one does).
    await q.query(
      `CREATE INDEX project_roles_permissions_idx ON project_roles USING gin (permissions)`,
    );
    for (const table of ['organization_members', 'invitations']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_role_check CHECK (role ~ '^[a-z0-9_-]{1,40}$')`,
      );
    }
    // "Does a member hold this role" (a role's deletion is refused while one does).
    await q.query(
      `CREATE INDEX organization_members_org_role_idx ON organization_members (organization_id, role)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX organization_members_org_role_idx`);
    for (const table of ['organization_members', 'invitations']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_role_check`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_role_check CHECK (role IN ('admin', 'member')) NOT VALID`,
      );
    }
    await q.query(`DROP TABLE project_roles`);
    await q.query(`DROP TABLE project_permissions`);
  }
}
