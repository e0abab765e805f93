// Generated from the served OpenAPI document by `npm run console:api`; do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Full health: database and cache checks (503 when one is down) */
        get: operations["HealthController_full"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 while the process runs */
        get: operations["HealthController_live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database and cache reachable (503 otherwise) */
        get: operations["HealthController_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Query the tenant's audit log, newest first: `{events, pagination}` */
        get: operations["AuditController_query"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stream every event matching the filters, newest first, without paging: `format=csv` (a header line; `data` as JSON) or `ndjson` (one event object a line, as the list shows them) */
        get: operations["AuditController_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's organizations, newest first; `project_id` filters, `q` searches name and slug */
        get: operations["OrganizationsController_list"];
        put?: never;
        /** Create an organization in a project (201) */
        post: operations["OrganizationsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an organization */
        get: operations["OrganizationsController_get"];
        put?: never;
        post?: never;
        /** Delete an organization with its members and invitations (204) */
        delete: operations["OrganizationsController_delete"];
        options?: never;
        head?: never;
        /** Update name, slug and/or metadata */
        patch: operations["OrganizationsController_update"];
        trace?: never;
    };
    "/v1/admin/organizations/{id}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's domains, by domain */
        get: operations["OrganizationDomainsController_list"];
        put?: never;
        /** Add a domain to the organization (201, pending, with the TXT record that verifies it); one it already has is 409 */
        post: operations["OrganizationDomainsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/domains/{domainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a domain of the organization */
        get: operations["OrganizationDomainsController_get"];
        put?: never;
        post?: never;
        /** Remove a domain from the organization (204); members stay */
        delete: operations["OrganizationDomainsController_remove"];
        options?: never;
        head?: never;
        /** Verify the domain without DNS (`status: "verified"` with a `reason`, audited) and/or set its `enrollment` and `default_role` */
        patch: operations["OrganizationDomainsController_update"];
        trace?: never;
    };
    "/v1/admin/organizations/{id}/domains/{domainId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the TXT record `_gatehouse-verification.<domain>`: holding the value, the domain is verified; else 409 with what was found */
        post: operations["OrganizationDomainsController_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an organization's invitations (pending, accepted, revoked, expired), newest first */
        get: operations["InvitationsController_list"];
        put?: never;
        /** Invite an email address; mails a 7-day single-use link (201) */
        post: operations["InvitationsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (204); its link stops working */
        delete: operations["InvitationsController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the members of an organization */
        get: operations["OrganizationMembersController_list"];
        put?: never;
        /** Add a user of the organization's project (201); an existing member is 409 */
        post: operations["OrganizationMembersController_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (204); removing the last admin is 409 */
        delete: operations["OrganizationMembersController_remove"];
        options?: never;
        head?: never;
        /** Change a member's role; demoting the last admin is 409 */
        patch: operations["OrganizationMembersController_update"];
        trace?: never;
    };
    "/v1/admin/organizations/{id}/sso-connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's SSO connections, oldest first */
        get: operations["SsoConnectionsController_list"];
        put?: never;
        /** Add a SAML or OpenID Connect connection to the organization (201, with the service provider values to give the IdP); secrets are write-only */
        post: operations["SsoConnectionsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/organizations/{id}/sso-connections/{connectionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an SSO connection of the organization */
        get: operations["SsoConnectionsController_get"];
        put?: never;
        post?: never;
        /** Delete an SSO connection (204); its users and members stay */
        delete: operations["SsoConnectionsController_remove"];
        options?: never;
        head?: never;
        /** Change an SSO connection (any member but its type; new metadata replaces the IdP settings) */
        patch: operations["SsoConnectionsController_update"];
        trace?: never;
    };
    "/v1/admin/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's projects (paginated, newest first; `q` searches the name) */
        get: operations["ProjectsController_list"];
        put?: never;
        /** Create a project with its publishable key and first signing key (201) */
        post: operations["ProjectsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a project */
        get: operations["ProjectsController_get"];
        put?: never;
        post?: never;
        /**
         * Delete a project with its users, keys, OAuth clients and sessions (204) ★; their tokens are refused from the next request
         * @description Needs the admin's recent proof of identity (403 `reauthentication-required`). The console project cannot be deleted (409 `conflict`). Event `project.deleted`.
         */
        delete: operations["ProjectsController_remove"];
        options?: never;
        head?: never;
        /** Update name, allowed origins, redirect URLs and settings (any subset; settings merge at their top level) */
        patch: operations["ProjectsController_update"];
        trace?: never;
    };
    "/v1/admin/projects/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's live API keys (never their secrets) */
        get: operations["ApiKeysController_list"];
        put?: never;
        /** Create an API key (`sk_…`); the `secret` is returned this once only (201) */
        post: operations["ApiKeysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key; the runtime refuses it from the next call (204) */
        delete: operations["ApiKeysController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/api-resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's API resources (paginated, newest first) */
        get: operations["ApiResourcesController_list"];
        put?: never;
        /** Register an API of the project: its OpenID Connect provider then issues RFC 9068 JWT access tokens for it (`aud` = identifier) (201); an identifier already registered in the project is 409 */
        post: operations["ApiResourcesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/api-resources/{resource_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an API resource */
        get: operations["ApiResourcesController_get"];
        put?: never;
        post?: never;
        /** Delete an API resource: requests naming it are invalid_target from then on (204) */
        delete: operations["ApiResourcesController_remove"];
        options?: never;
        head?: never;
        /** Update an API resource (any subset of the create members) */
        patch: operations["ApiResourcesController_update"];
        trace?: never;
    };
    "/v1/admin/projects/{id}/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's OAuth clients (paginated, newest first; never their secrets) */
        get: operations["OAuthClientsController_list"];
        put?: never;
        /** Register a client of the project's OpenID Connect provider; a confidential client's `client_secret` is returned this once only (201) */
        post: operations["OAuthClientsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/oauth-clients/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an OAuth client */
        get: operations["OAuthClientsController_get"];
        put?: never;
        post?: never;
        /** Delete an OAuth client and the grants users gave it (204) */
        delete: operations["OAuthClientsController_remove"];
        options?: never;
        head?: never;
        /** Update an OAuth client (any subset of the create members but `token_endpoint_auth_method`) */
        patch: operations["OAuthClientsController_update"];
        trace?: never;
    };
    "/v1/admin/projects/{id}/oauth-clients/{client_id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a confidential client's secret: the new `client_secret` is returned this once only, the old one stops working (201); a public client is 409 */
        post: operations["OAuthClientsController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the permissions roles can grant: the system ones first, then the project's by key */
        get: operations["PermissionsController_list"];
        put?: never;
        /** Add a permission to the project's catalog (201), for its roles to grant; a key already there is 409 */
        post: operations["PermissionsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/permissions/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a permission (204); one a role grants, or a system one, is 409 */
        delete: operations["PermissionsController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's roles: admin and member first, then by key */
        get: operations["RolesController_list"];
        put?: never;
        /** Create a custom role of the project (201): a key members can hold and the permissions it grants (system or the project's); a key already used is 409 */
        post: operations["RolesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/roles/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a role by its key */
        get: operations["RolesController_get"];
        put?: never;
        post?: never;
        /** Delete a custom role (204); a built-in role, or one a member or a pending invitation holds, is 409 */
        delete: operations["RolesController_remove"];
        options?: never;
        head?: never;
        /** Update a role's name, description or permissions (built-in ones too; admin's permissions cannot be narrowed: 409) */
        patch: operations["RolesController_update"];
        trace?: never;
    };
    "/v1/admin/projects/{id}/signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the project's signing keys (active, retiring, retired), newest first */
        get: operations["SigningKeysController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/signing-keys/{key_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a key that is not the active one: its tokens are refused at once and jwks.json drops it (200, the key); the active key is 409 */
        post: operations["SigningKeysController_revoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the key of one algorithm (default ES256): a new active key; the old one of that algorithm keeps verifying for the longest token lifetime (201, the new key) */
        post: operations["SigningKeysController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/users/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream the project's users as NDJSON in the import format; password hashes and TOTP secrets only with `include_password_hashes=true` (a security event)
         * @description With `include_password_hashes=true` the admin needs a recent proof of identity: 403 `reauthentication-required` otherwise (`POST /v1/auth/reauthenticate` renews it).
         */
        get: operations["UserTransferController_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/projects/{id}/users/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import users from an `application/x-ndjson` body, one user a line, streamed; answers the report (docs/migration.md)
         * @description With `on_conflict=update` (its lines may overwrite passwords and TOTP secrets), the admin needs a recent proof of identity: 403 `reauthentication-required` before any line is read (`POST /v1/auth/reauthenticate` renews it).
         */
        post: operations["UserTransferController_import"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's sign-in activity per UTC day and project, live sessions and webhook delivery outcomes (the console's Overview)
         * @description Our addition, not in the contract (docs/api-contract.md §16). The window is the last `days` UTC days, today (by the server clock) included; the daily counts and the deliveries are of that window, the sessions are those live now. Only the admin's tenant is ever counted.
         */
        get: operations["StatsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's users, newest first; `q` searches email and username, `project_id` filters */
        get: operations["UsersController_list"];
        put?: never;
        /**
         * Create a user in one of the tenant's projects (201), by the sign-up rules: a password, or none (optionally with a mailed set-password link, `send_invitation`)
         * @description The password follows the sign-up policy (400 `validation-error` on `password`); a taken email or username → 409 `conflict` naming the field; an unknown or other tenant's `project_id` → 404. Event `user.created`.
         */
        post: operations["UsersController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user with their active sessions and organizations */
        get: operations["UsersController_get"];
        put?: never;
        post?: never;
        /** Delete a user and everything of theirs; their sessions end at once (204) */
        delete: operations["UsersController_delete"];
        options?: never;
        head?: never;
        /** Update `status` (disabled revokes every session; active also unlocks), `metadata` and/or `email_verified`; event `user.updated` with `data.changes` */
        patch: operations["UsersController_update"];
        trace?: never;
    };
    "/v1/admin/users/{id}/factors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's second factors: enabled TOTP and SMS, the backup-code set (with `remaining`) and passkeys, oldest first */
        get: operations["UsersController_listFactors"];
        put?: never;
        post?: never;
        /**
         * Reset MFA: remove every second factor, backup code and passkey of the user (204) ★; their next password sign-in needs no second factor
         * @description Needs the admin's recent proof of identity (403 `reauthentication-required`). Events `mfa.disabled` per factor and `passkey.removed` per passkey, then audit `user.mfa_reset`.
         */
        delete: operations["UsersController_removeAllFactors"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/factors/{factor_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove one second factor, the backup-code set or one passkey (204) ★
         * @description Needs the admin's recent proof of identity (403 `reauthentication-required`; `POST /v1/auth/reauthenticate` renews it). Removing the last TOTP/SMS factor also removes the backup codes. Events `mfa.disabled` / `passkey.removed`.
         */
        delete: operations["UsersController_removeFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/impersonate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in as the user: a one-time link (60 s, single use) to the auth runtime that starts a session of theirs (201) ★
         * @description Needs the admin's recent proof of identity (403 `reauthentication-required`). The session's access tokens carry `act: {sub: <admin id>}`, live at most 15 minutes and cannot be refreshed past 60 minutes after the link was opened; `GET /v1/auth/me` shows `impersonator`, session lists `impersonator_id`. Such a session cannot change the password, email, second factors or passkeys (403 `forbidden`). Another admin of the tenant → 403 `forbidden`; a disabled user → 409. Audit `user.impersonated` with the reason; `session.created` carries `impersonator_id`.
         */
        post: operations["UsersController_impersonate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail the user a password-reset link, the mail `password/forgot` sends (202 `{}`); a disabled user → 409. Audit `user.password_reset_sent` */
        post: operations["UsersController_sendPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke every session of the user (204), signing them out everywhere; the user stays active and may sign in again */
        delete: operations["UsersController_revokeSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{id}/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the user's sessions (204): its access and refresh tokens are refused from the next request; 404 when it is not the user's or already ended */
        delete: operations["UsersController_revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the tenant's webhooks (paginated, newest first) */
        get: operations["WebhooksController_list"];
        put?: never;
        /** Create a webhook; its `whsec_…` signing `secret` is returned this once only (201) */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook */
        get: operations["WebhooksController_get"];
        put?: never;
        post?: never;
        /** Delete a webhook and its delivery records (204) */
        delete: operations["WebhooksController_remove"];
        options?: never;
        head?: never;
        /** Update a webhook (any subset); `enabled: true` re-enables it and clears `disabled_reason` */
        patch: operations["WebhooksController_update"];
        trace?: never;
    };
    "/v1/admin/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List delivery attempts of a webhook (paginated, newest first); `status` and `event_type` filter */
        get: operations["WebhooksController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery attempt with the request sent (signature header shown, never the secret), the receiver's answer (first 4 KiB of its body) and why it failed */
        get: operations["WebhooksController_delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a new attempt of a delivery's event with the same `webhook-id` (202) */
        post: operations["WebhooksController_redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook's signing secret (201 `{secret}`, shown once) ★: for 24 hours every delivery carries both signatures (`v1,<new> v1,<old>`), then the new one only
         * @description Needs the admin's recent proof of identity (403 `reauthentication-required`). Audit `webhook.secret_rotated`.
         */
        post: operations["WebhooksController_rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a `webhook.test` event for this webhook only (202) */
        post: operations["WebhooksController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AddMemberDto: {
            /**
             * @description A role key of the organization's project: admin, member or a custom role
             * @default member
             */
            role?: string;
            /** @description A user of the organization's project */
            user_id: string;
        };
        AllDependencies: {
            /** @description Redis */
            cache: components["schemas"]["DependencyHealth"];
            /** @description PostgreSQL */
            database: components["schemas"]["DependencyHealth"];
        };
        ApiKeyCreatedResponse: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            /**
             * @description The first 11 characters of the secret, to tell keys apart
             * @example sk_Q2x9LmPa
             */
            key_prefix: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            /** Format: uuid */
            project_id: string;
            /** @description The `sk_…` secret, shown this once only */
            secret: string;
        };
        ApiKeyListResponse: {
            api_keys: components["schemas"]["ApiKeyResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        ApiKeyResponse: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            /**
             * @description The first 11 characters of the secret, to tell keys apart
             * @example sk_Q2x9LmPa
             */
            key_prefix: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            /** Format: uuid */
            project_id: string;
        };
        ApiResourceListResponse: {
            api_resources: components["schemas"]["ApiResourceResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        ApiResourceResponse: {
            /** @description null: the project's access_token_ttl_seconds */
            access_token_ttl_seconds: number | null;
            allow_dynamic_clients: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            /**
             * @description The resource indicator, URL-normalised: the `aud` of its tokens
             * @example https://mcp.example.com/mcp
             */
            identifier: string;
            name: string;
            scopes: components["schemas"]["ApiResourceScopeResponse"][];
            /** Format: date-time */
            updated_at: string;
        };
        ApiResourceScopeDto: {
            /**
             * @default
             * @example Use the tools of the MCP server
             */
            description?: string;
            /**
             * @description A scope token (RFC 6749 §3.3), not one of openid, profile, email, offline_access
             * @example mcp:tools
             */
            name: string;
        };
        ApiResourceScopeResponse: {
            /** @example Use the tools of the MCP server */
            description: string;
            /** @example mcp:tools */
            name: string;
        };
        AppleProviderDto: {
            authorization_url?: string;
            client_id?: string;
            /** @description Write-only; reads show `client_secret_set`. Omitted keeps the stored secret, null clears it. */
            client_secret?: string | null;
            enabled?: boolean;
            issuer?: string;
            key_id?: string;
            /** @description PKCS#8 PEM; write-only, reads show `private_key_set` */
            private_key?: string | null;
            scopes?: string[];
            team_id?: string;
            token_url?: string;
            userinfo_url?: string;
        };
        AppleProviderResponse: {
            authorization_url?: string;
            client_id?: string;
            /** @description Whether a client secret is stored (it is write-only) */
            client_secret_set: boolean;
            enabled?: boolean;
            issuer?: string;
            key_id?: string;
            /**
             * @description Present when a private key is stored (it is write-only)
             * @enum {boolean}
             */
            private_key_set?: true;
            scopes?: string[];
            team_id?: string;
            token_url?: string;
            userinfo_url?: string;
        };
        AuditEventListResponse: {
            events: components["schemas"]["AuditEventResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        AuditEventResponse: {
            /**
             * @description `<resource>.<verb>`
             * @example user.created
             */
            action: string;
            /** @description The acting user or API key; null when the system acted */
            actor_id: string | null;
            /** @enum {string} */
            actor_type: "user" | "admin" | "system" | "api_key";
            /** Format: date-time */
            created_at: string;
            /** @description What there is to say (docs/api-contract.md §13): an update's `changes` (`{"<field>": {"from", "to"}}`, a secret as `{"changed": true}`), a failed sign-in's `reason`, an import's counts; `{}` when nothing */
            data: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            id: string;
            ip_address: string | null;
            /** Format: uuid */
            project_id: string | null;
            resource_id: string | null;
            /** @example user */
            resource_type: string;
            user_agent: string | null;
        };
        CreateApiKeyDto: {
            /** @example Backend server */
            name: string;
        };
        CreateApiResourceDto: {
            /** @description Lifetime of its access tokens; null or absent: the project's access_token_ttl_seconds */
            access_token_ttl_seconds?: number | null;
            /**
             * @description Whether self-registered clients (RFC 7591) may get tokens for it, after the user consents
             * @default false
             */
            allow_dynamic_clients?: boolean;
            /**
             * @description The RFC 8707 resource indicator: an absolute https URL (plain http only on localhost or loopback), no query or fragment; stored URL-normalised; unique in the project
             * @example https://mcp.example.com/mcp
             */
            identifier: string;
            /** @example MCP server */
            name: string;
            /** @description The scopes a token for this API may carry */
            scopes: components["schemas"]["ApiResourceScopeDto"][];
        };
        CreateDomainDto: {
            /**
             * @description A hostname with at least one dot; stored lower-cased, an internationalized name in punycode
             * @example acme.com
             */
            domain: string;
        };
        CreateInvitationDto: {
            /** @example grace@example.com */
            email: string;
            /**
             * @description A role key of the organization's project: admin, member or a custom role
             * @default member
             */
            role?: string;
        };
        CreateOAuthClientDto: {
            /**
             * @description A first-party client skips the consent screen
             * @default false
             */
            first_party?: boolean;
            /**
             * @default [
             *       "authorization_code",
             *       "refresh_token"
             *     ]
             */
            grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /**
             * @description How ID tokens are signed: RS256 unless the client asks for ES256 (OpenID Connect Dynamic Client Registration §2)
             * @default RS256
             * @enum {string}
             */
            id_token_signed_response_alg?: "ES256" | "RS256";
            /** @example Grafana */
            name: string;
            /**
             * @description Where RP-initiated logout may return to; the same rules as redirect_uris
             * @default []
             */
            post_logout_redirect_uris?: string[];
            /**
             * @description Exact redirect URIs (absolute https, or http for loopback; no wildcard, no fragment); at least one for the authorization_code grant
             * @example [
             *       "https://grafana.example.com/login/generic_oauth"
             *     ]
             */
            redirect_uris: string[];
            /**
             * @description PKCE on every authorization request. `false` (a confidential client only) lets an OpenID Connect request use a `nonce` instead (RFC 9700 §2.1.1)
             * @default true
             */
            require_pkce?: boolean;
            /**
             * @description Authorization requests only through the pushed authorization request endpoint (RFC 9126 §6)
             * @default false
             */
            require_pushed_authorization_requests?: boolean;
            /**
             * @default [
             *       "openid",
             *       "profile",
             *       "email",
             *       "offline_access"
             *     ]
             */
            scopes?: ("openid" | "profile" | "email" | "offline_access" | "organizations")[];
            /**
             * @description `none` makes a public client (PKCE, no secret); it cannot be changed later
             * @default client_secret_basic
             * @enum {string}
             */
            token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none";
        };
        CreateOrganizationDto: {
            /** @description Free key/value content, at most 8 KiB as JSON */
            metadata?: Record<string, unknown>;
            /** @example Acme Inc. */
            name: string;
            /** @description The project the organization belongs to */
            project_id: string;
            /** @description Its policies; given members replace theirs, others stay */
            settings?: components["schemas"]["OrganizationSettingsDto"];
            /**
             * @description Unique in the project; derived from the name when omitted
             * @example acme-inc
             */
            slug?: string;
        };
        CreatePermissionDto: {
            /**
             * @default
             * @example Read invoices
             */
            description?: string;
            /**
             * @description resource:action in lower case; unique in the project; the org: namespace is the system permissions
             * @example invoices:read
             */
            key: string;
        };
        CreateProjectDto: {
            /**
             * @example [
             *       "https://app.example.com"
             *     ]
             */
            allowed_origins?: string[];
            /** @example Acme web app */
            name: string;
            /**
             * @example [
             *       "https://app.example.com/callback"
             *     ]
             */
            redirect_urls?: string[];
            settings?: components["schemas"]["ProjectSettingsDto"];
        };
        CreateRoleDto: {
            /** @default  */
            description?: string;
            /**
             * @description Unique in the project; admin and member are built in
             * @example billing_manager
             */
            key: string;
            /** @example Billing manager */
            name: string;
            /**
             * @description Keys of the project's permissions or system permissions
             * @example [
             *       "invoices:read",
             *       "org:members:read"
             *     ]
             */
            permissions: string[];
        };
        CreateSsoConnectionDto: {
            attribute_mapping?: components["schemas"]["SsoAttributeMappingDto"];
            /**
             * @description Verified domains of the organization whose people sign in through it
             * @example [
             *       "acme.com"
             *     ]
             */
            domains?: string[];
            /** @default true */
            enabled?: boolean;
            /**
             * @description People at the connection's domains may sign in only through it (403 sso-required elsewhere)
             * @default false
             */
            enforce?: boolean;
            /**
             * @description IdP group → role key of the project; at each sign-in the member gets the role of their first mapped group, else jit.default_role
             * @example {
             *       "acme-admins": "admin",
             *       "billing": "billing"
             *     }
             */
            group_roles?: {
                [key: string]: string;
            };
            jit?: components["schemas"]["SsoJitDto"];
            /** @example Acme Okta */
            name: string;
            /** @description With type oidc: required */
            oidc?: components["schemas"]["OidcConnectionDto"];
            /** @description With type saml: required */
            saml?: components["schemas"]["SamlConnectionDto"];
            /** @enum {string} */
            type: "saml" | "oidc";
        };
        CreateUserDto: {
            /** @example ada@example.com */
            email: string;
            /** @default false */
            email_verified?: boolean;
            /** @description Free key/value content, at most 8 KiB as JSON */
            metadata?: Record<string, unknown>;
            /** @description 8–128 characters (NFKC), not a common password, not the email or username. Omitted: the user has no password (a set-password invitation, a reset, a magic link or a social sign-in gives one a way in) */
            password?: string;
            /**
             * Format: uuid
             * @description One of the tenant's projects; another tenant's or an unknown one is 404
             */
            project_id: string;
            /**
             * @description Without a password: mail the user a set-password link (7 days, single use) to the project's `settings.password_reset_url`; `POST /v1/auth/password/reset` completes it. With a password: 400
             * @default false
             */
            send_invitation?: boolean;
            /** @description 3–32 of a-z 0-9 _ . - (folded to lower case) */
            username?: string;
        };
        CreateWebhookDto: {
            description?: string | null;
            /** @default true */
            enabled?: boolean;
            /**
             * @description Event types to receive, or ["*"] for all
             * @example [
             *       "user.created"
             *     ]
             */
            events: string[];
            /**
             * @description http(s) URL; private addresses are refused unless allowed
             * @example https://example.com/webhooks/gatehouse
             */
            url: string;
        };
        DailyStatsResponse: {
            /**
             * Format: date
             * @description The UTC day
             * @example 2026-11-25
             */
            date: string;
            /** @description `user.sign_in_failed` events: attempts refused after a check (wrong password or unknown identifier, disabled account, refused passkey, failed social sign-in, wrong second-factor code) */
            failed_sign_ins: number;
            /** @description `user.locked` events: a lock starting (an identifier's password lock or a user's second-factor lock) */
            lockouts: number;
            /** Format: uuid */
            project_id: string;
            /** @description `session.created` events: sessions started by any way in (password, magic link, passkey, social, an MFA challenge completed), the one a sign-up opens included */
            sign_ins: number;
            /** @description `user.created` events whose actor is the user (password sign-up, or a first social sign-in that created the account); users the system provisions are not counted */
            sign_ups: number;
        };
        DeliveryRequestResponse: {
            /** @description The JSON body sent (the event payload); null once the event was purged from the outbox */
            body: string | null;
            /** @description As sent, `webhook-signature` included (never the secret); empty for an attempt not made or refused before sending */
            headers: {
                [key: string]: string;
            };
            url: string;
        };
        DependencyHealth: {
            /**
             * @description Only when down
             * @enum {string}
             */
            message?: "unreachable" | "not connected";
            /** @enum {string} */
            status: "up" | "down";
        };
        DomainListResponse: {
            domains: components["schemas"]["DomainResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        DomainResponse: {
            /** Format: date-time */
            created_at: string;
            /**
             * @description A role key of the project
             * @example member
             */
            default_role: string;
            /**
             * @description Lower case; an IDN in punycode
             * @example acme.com
             */
            domain: string;
            /** @enum {string} */
            enrollment: "none" | "suggest" | "auto_join";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_id: string;
            /** @enum {string} */
            status: "pending" | "verified";
            /** Format: date-time */
            updated_at: string;
            verification: components["schemas"]["DomainVerificationResponse"];
            /** Format: date-time */
            verified_at: string | null;
        };
        DomainVerificationResponse: {
            /** @example _gatehouse-verification.acme.com */
            name: string;
            /** @enum {string} */
            type: "dns_txt";
            /** @description The value the TXT record must hold (one of its strings) */
            value: string;
        };
        GithubProviderDto: {
            authorization_url?: string;
            client_id?: string;
            /** @description Write-only; reads show `client_secret_set`. Omitted keeps the stored secret, null clears it. */
            client_secret?: string | null;
            /** @description Default `{userinfo_url}/emails` */
            emails_url?: string;
            enabled?: boolean;
            issuer?: string;
            scopes?: string[];
            token_url?: string;
            userinfo_url?: string;
        };
        GithubProviderResponse: {
            authorization_url?: string;
            client_id?: string;
            /** @description Whether a client secret is stored (it is write-only) */
            client_secret_set: boolean;
            emails_url?: string;
            enabled?: boolean;
            issuer?: string;
            scopes?: string[];
            token_url?: string;
            userinfo_url?: string;
        };
        HealthDownResponse: {
            details: components["schemas"]["AllDependencies"];
            /** @description The dependencies that are down */
            error: components["schemas"]["SomeDependencies"];
            /** @description The dependencies that are up */
            info: components["schemas"]["SomeDependencies"];
            /** @enum {string} */
            status: "error" | "shutting_down";
        };
        HealthLiveResponse: {
            /** @enum {string} */
            status: "ok";
        };
        HealthUpResponse: {
            details: components["schemas"]["AllDependencies"];
            /** @description The dependencies that are down */
            error: components["schemas"]["SomeDependencies"];
            /** @description The dependencies that are up */
            info: components["schemas"]["SomeDependencies"];
            /** @enum {string} */
            status: "ok";
        };
        ImpersonateUserDto: {
            /**
             * @description Why (1–500 characters); kept in the audit event `user.impersonated`
             * @example Ticket #4411: checkout fails
             */
            reason: string;
            /** @description Where the link lands, signed in: a registered redirect URL of the user's project (default its `default_redirect_url`) */
            redirect_url?: string;
        };
        ImpersonationLinkResponse: {
            /** Format: date-time */
            expires_at: string;
            /**
             * @description Open it in a browser once, within 60 s: a session of the user starts on the auth runtime and the browser lands on the redirect URL
             * @example https://auth.example.com/v1/auth/impersonation/verify?token=…&project_key=pk_…
             */
            url: string;
        };
        ImportCounts: {
            conflicts: number;
            created: number;
            rejected: number;
            skipped: number;
            updated: number;
        };
        ImportLineError: {
            detail: string;
            /** @description Field (dotted path) → messages */
            errors?: {
                [key: string]: unknown;
            };
            /** @description Line number, from 1 */
            line: number;
            /** @description A problem slug: validation-error, invalid-json, conflict, payload-too-large */
            type: string;
        };
        ImportReportResponse: {
            counts: components["schemas"]["ImportCounts"];
            /** @description Refused lines (the first 1000) */
            errors: components["schemas"]["ImportLineError"][];
        };
        InvitationListResponse: {
            invitations: components["schemas"]["InvitationResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        InvitationResponse: {
            /** Format: date-time */
            accepted_at: string | null;
            /** Format: date-time */
            created_at: string;
            email: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The inviting admin; null once that user is deleted
             */
            invited_by: string | null;
            /** Format: uuid */
            organization_id: string;
            /** Format: date-time */
            revoked_at: string | null;
            /**
             * @description A role key of the organization's project
             * @example member
             */
            role: string;
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
        };
        MemberListResponse: {
            members: components["schemas"]["MemberResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        MemberResponse: {
            /**
             * Format: date-time
             * @description When the user joined
             */
            created_at: string;
            email: string;
            /** Format: uuid */
            organization_id: string;
            /**
             * @description A role key of the organization's project
             * @example member
             */
            role: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            user_id: string;
            username: string | null;
        };
        NoFieldsDto: Record<string, unknown>;
        OAuthClientCreatedResponse: {
            /**
             * @description The public `client_id` (`oc_…`)
             * @example oc_3mQ1b8gk0yJv6Tz1dR9aXw
             */
            client_id: string;
            /** @description The `ocs_…` secret of a confidential client, shown this once only; absent for a public client */
            client_secret?: string;
            /** Format: date-time */
            created_at: string;
            /** @description First-party clients skip the consent screen */
            first_party: boolean;
            grant_types: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg: "ES256" | "RS256";
            name: string;
            post_logout_redirect_uris: string[];
            /** @description A public client (`token_endpoint_auth_method: none`) has no secret and uses PKCE */
            public: boolean;
            redirect_uris: string[];
            /** @description PKCE on every authorization request (false: a confidential client that uses the OpenID Connect nonce instead) */
            require_pkce: boolean;
            /** @description Authorization requests only through the pushed authorization request endpoint (RFC 9126) */
            require_pushed_authorization_requests: boolean;
            scopes: ("openid" | "profile" | "email" | "offline_access" | "organizations")[];
            /** @enum {string} */
            token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none";
            /** Format: date-time */
            updated_at: string;
        };
        OAuthClientListResponse: {
            oauth_clients: components["schemas"]["OAuthClientResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        OAuthClientResponse: {
            /**
             * @description The public `client_id` (`oc_…`)
             * @example oc_3mQ1b8gk0yJv6Tz1dR9aXw
             */
            client_id: string;
            /** Format: date-time */
            created_at: string;
            /** @description First-party clients skip the consent screen */
            first_party: boolean;
            grant_types: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg: "ES256" | "RS256";
            name: string;
            post_logout_redirect_uris: string[];
            /** @description A public client (`token_endpoint_auth_method: none`) has no secret and uses PKCE */
            public: boolean;
            redirect_uris: string[];
            /** @description PKCE on every authorization request (false: a confidential client that uses the OpenID Connect nonce instead) */
            require_pkce: boolean;
            /** @description Authorization requests only through the pushed authorization request endpoint (RFC 9126) */
            require_pushed_authorization_requests: boolean;
            scopes: ("openid" | "profile" | "email" | "offline_access" | "organizations")[];
            /** @enum {string} */
            token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none";
            /** Format: date-time */
            updated_at: string;
        };
        OAuthClientSecretRotatedResponse: {
            /**
             * @description The public `client_id` (`oc_…`)
             * @example oc_3mQ1b8gk0yJv6Tz1dR9aXw
             */
            client_id: string;
            /** @description The new `ocs_…` secret, shown this once only; the previous one no longer works */
            client_secret: string;
            /** Format: date-time */
            created_at: string;
            /** @description First-party clients skip the consent screen */
            first_party: boolean;
            grant_types: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg: "ES256" | "RS256";
            name: string;
            post_logout_redirect_uris: string[];
            /** @description A public client (`token_endpoint_auth_method: none`) has no secret and uses PKCE */
            public: boolean;
            redirect_uris: string[];
            /** @description PKCE on every authorization request (false: a confidential client that uses the OpenID Connect nonce instead) */
            require_pkce: boolean;
            /** @description Authorization requests only through the pushed authorization request endpoint (RFC 9126) */
            require_pushed_authorization_requests: boolean;
            scopes: ("openid" | "profile" | "email" | "offline_access" | "organizations")[];
            /** @enum {string} */
            token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none";
            /** Format: date-time */
            updated_at: string;
        };
        OAuthProviderDto: {
            authorization_url?: string;
            client_id?: string;
            /** @description Write-only; reads show `client_secret_set`. Omitted keeps the stored secret, null clears it. */
            client_secret?: string | null;
            enabled?: boolean;
            issuer?: string;
            scopes?: string[];
            token_url?: string;
            userinfo_url?: string;
        };
        OAuthProviderResponse: {
            authorization_url?: string;
            client_id?: string;
            /** @description Whether a client secret is stored (it is write-only) */
            client_secret_set: boolean;
            enabled?: boolean;
            issuer?: string;
            scopes?: string[];
            token_url?: string;
            userinfo_url?: string;
        };
        OAuthProvidersDto: {
            apple?: components["schemas"]["AppleProviderDto"] | null;
            github?: components["schemas"]["GithubProviderDto"] | null;
            google?: components["schemas"]["OAuthProviderDto"] | null;
            microsoft?: components["schemas"]["OAuthProviderDto"] | null;
        };
        OAuthProvidersResponse: {
            apple?: components["schemas"]["AppleProviderResponse"];
            github?: components["schemas"]["GithubProviderResponse"];
            google?: components["schemas"]["OAuthProviderResponse"];
            microsoft?: components["schemas"]["OAuthProviderResponse"];
        };
        OidcConnectionDto: {
            client_id?: string;
            /** @description Write-only: stored sealed, never shown */
            client_secret?: string;
            /**
             * @description Its discovery document is at {issuer}/.well-known/openid-configuration
             * @example https://acme.okta.com
             */
            issuer?: string;
            /**
             * @description Asked for at sign-in; openid is always among them
             * @default [
             *       "openid",
             *       "email",
             *       "profile"
             *     ]
             */
            scopes?: string[];
        };
        OidcSettingsDto: {
            /**
             * @description Whether the hosted sign-in page offers 'Create an account' (and honours `prompt=create`)
             * @default true
             */
            allow_sign_up?: boolean;
            /**
             * @description Whether RFC 7591 dynamic client registration is open
             * @default false
             */
            dynamic_registration?: boolean;
            /**
             * @description Whether the provider answers; discovery of a disabled one is 404
             * @default false
             */
            enabled?: boolean;
            /**
             * @description The application's page that completes sign-in and consent (`?interaction=<uid>`); one of the project's redirect_urls. Null: the hosted pages
             * @default null
             * @example https://app.example.com/login
             */
            login_url?: string | null;
            /**
             * @description Whether every client must push its authorization requests first (RFC 9126 §5); a client can also be required to alone
             * @default false
             */
            require_pushed_authorization_requests?: boolean;
        };
        OidcSettingsResponse: {
            client_id: string;
            issuer: string;
            scopes: string[];
        };
        OrganizationListResponse: {
            organizations: components["schemas"]["OrganizationResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        OrganizationResponse: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            /** @description Free-form JSON object */
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            /** Format: uuid */
            project_id: string;
            settings: components["schemas"]["OrganizationSettingsResponse"];
            /**
             * @description Unique in the project
             * @example acme
             */
            slug: string;
            /** Format: date-time */
            updated_at: string;
        };
        OrganizationSettingsDto: {
            /**
             * @description Members without a second factor cannot make it active (403 mfa-required)
             * @default false
             */
            require_mfa?: boolean;
        };
        OrganizationSettingsResponse: {
            /** @description Members without a second factor cannot make it active (403 mfa-required) */
            require_mfa: boolean;
        };
        PaginationResponse: {
            limit: number;
            page: number;
            /** @description Items matching the query, on every page */
            total: number;
        };
        PasswordMigrationSettingsDto: {
            /**
             * @description Whether password sign-ins of unknown emails and of imported users without a hash ask the old system
             * @default false
             */
            enabled?: boolean;
            /** @description Signing secret of each call (Standard Webhooks): `whsec_` + base64 of at least 24 random bytes; write-only */
            secret?: string;
            /**
             * @description How long a sign-in waits for the old system
             * @default 5000
             */
            timeout_ms?: number;
            /**
             * @description POST {email, password} → 200 {user} when right; private addresses as for webhooks
             * @example https://legacy.example.com/gatehouse/verify
             */
            url?: string;
        };
        PasswordMigrationSettingsResponse: {
            enabled: boolean;
            /** @description Whether a signing secret is stored (it is write-only) */
            secret_set: boolean;
            timeout_ms: number;
            url: string | null;
        };
        PermissionListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            permissions: components["schemas"]["PermissionResponse"][];
        };
        PermissionResponse: {
            /**
             * Format: date-time
             * @description null for a system permission
             */
            created_at: string | null;
            description: string;
            /** @example invoices:read */
            key: string;
            /** @description A system permission: in every project, granted to admin */
            system: boolean;
        };
        /** @description Extensions such as `locked_until` (account-locked) or `max_age_seconds` (reauthentication-required) may appear. */
        Problem: {
            /** @example The request is invalid. */
            detail: string;
            /**
             * @description Field errors on dotted paths (`validation-error`, some `conflict`s)
             * @example {
             *       "email": [
             *         "must be an email address"
             *       ]
             *     }
             */
            errors?: {
                [key: string]: string[];
            };
            /** @example /v1/auth/sign-up */
            instance?: string;
            /** @example 400 */
            status: number;
            /** @example Validation Error */
            title: string;
            traceId: string;
            /**
             * Format: uri
             * @example https://gatehouse.dev/problems/validation-error
             */
            type: string;
        } & {
            [key: string]: unknown;
        };
        ProjectListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            projects: components["schemas"]["ProjectResponse"][];
        };
        ProjectOidcSettingsResponse: {
            /** @description Whether the hosted sign-in page offers 'Create an account' */
            allow_sign_up: boolean;
            /** @description Whether RFC 7591 dynamic client registration is open */
            dynamic_registration: boolean;
            /** @description Whether the project's OpenID Connect provider answers */
            enabled: boolean;
            /** @description The application's page that completes sign-in and consent; null: the hosted pages */
            login_url: string | null;
            /** @description Whether every client must push its authorization requests first (RFC 9126) */
            require_pushed_authorization_requests: boolean;
        };
        ProjectOrganizationsSettingsDto: {
            /**
             * @description Whether signed-in users may create organizations (POST /v1/auth/organizations)
             * @default false
             */
            allow_user_create?: boolean;
        };
        ProjectResponse: {
            /**
             * @example [
             *       "https://app.example.com"
             *     ]
             */
            allowed_origins: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The `pk_…` key clients send as `X-Service-Project-Key` */
            publishable_key: string;
            /**
             * @example [
             *       "https://app.example.com/callback"
             *     ]
             */
            redirect_urls: string[];
            settings: components["schemas"]["ProjectSettingsResponse"];
            /** Format: date-time */
            updated_at: string;
        };
        ProjectSessionCountResponse: {
            count: number;
            /** Format: uuid */
            project_id: string;
        };
        ProjectSettingsDto: {
            /** @default 900 */
            access_token_ttl_seconds?: number | null;
            /** @example https://app.example.com/callback */
            default_redirect_url?: string | null;
            /** @description Page the verification mail links to (default: default_redirect_url) */
            email_verification_url?: string | null;
            /** @description Page the invitation mail links to (default: default_redirect_url) */
            invitation_url?: string | null;
            oauth_providers?: components["schemas"]["OAuthProvidersDto"] | null;
            /** @description The project's OpenID Connect provider; omitted members take their defaults, null resets it (off) */
            oidc?: components["schemas"]["OidcSettingsDto"] | null;
            /** @description What end users may do with organizations; replaced as a whole, null resets it */
            organizations?: components["schemas"]["ProjectOrganizationsSettingsDto"] | null;
            /** @description Lazy password migration from an old system (docs/migration.md); null turns it off and forgets the secret */
            password_migration?: components["schemas"]["PasswordMigrationSettingsDto"] | null;
            /** @description Page the reset mail links to (default: default_redirect_url) */
            password_reset_url?: string | null;
            /**
             * @description How recent a proof of identity (auth_time) sensitive self-service actions need
             * @default 600
             */
            reauthentication_max_age_seconds?: number | null;
            require_email_verification?: boolean | null;
            /**
             * @description WebAuthn relying party id (a host name)
             * @example app.example.com
             */
            rp_id?: string | null;
            rp_name?: string | null;
            /** @description Hourly SMS budget and allowed countries; omitted members take their defaults */
            sms?: components["schemas"]["SmsSettingsDto"] | null;
            /**
             * @description Custom claims of access tokens (and of the OpenID Connect ID token and UserInfo for the scope profile): claim name → template with {{user.metadata.…}}, {{org.metadata.…}} or {{user.email_verified}}; a whole {{…}} keeps its JSON type, a missing value leaves the claim out; at most 20 claims and 4 KiB rendered; registered and Gatehouse claim names are refused
             * @example {
             *       "plan": "{{user.metadata.plan}}",
             *       "tier": "{{org.metadata.tier}}"
             *     }
             */
            token_claims?: {
                [key: string]: string;
            } | null;
        };
        ProjectSettingsResponse: {
            access_token_ttl_seconds: number;
            default_redirect_url: string | null;
            /** @description Page the verification mail links to */
            email_verification_url?: string;
            /** @description Page the invitation mail links to */
            invitation_url?: string;
            oauth_providers: components["schemas"]["OAuthProvidersResponse"];
            oidc: components["schemas"]["ProjectOidcSettingsResponse"];
            /** @description What end users may do with organizations; only when set */
            organizations?: {
                allow_user_create?: boolean;
            };
            password_migration: components["schemas"]["PasswordMigrationSettingsResponse"];
            /** @description Page the reset mail links to */
            password_reset_url?: string;
            reauthentication_max_age_seconds: number;
            require_email_verification: boolean;
            /** @description WebAuthn relying party id */
            rp_id: string | null;
            rp_name: string | null;
            sms: components["schemas"]["ProjectSmsSettingsResponse"];
            /** @description Custom claims: claim name → template; only when set */
            token_claims?: {
                [key: string]: string;
            };
        };
        ProjectSmsSettingsResponse: {
            /**
             * @description ISO 3166-1 alpha-2 codes, or `["*"]` for any country
             * @example [
             *       "FR",
             *       "BE"
             *     ]
             */
            allowed_countries: string[];
            /** @description SMS the project may send in an hour, all users together */
            max_per_hour: number;
        };
        PublicJwkResponse: {
            /** @enum {string} */
            alg: "ES256" | "RS256";
            /**
             * @description EC keys only
             * @enum {string}
             */
            crv?: "P-256";
            /** @description RSA keys only: the public exponent, base64url */
            e?: string;
            /** @description The `kid` header of the tokens it verifies */
            kid: string;
            /** @enum {string} */
            kty: "EC" | "RSA";
            /** @description RSA keys only: the modulus, base64url (2048 bits) */
            n?: string;
            /** @enum {string} */
            use: "sig";
            /** @description EC keys only; base64url */
            x?: string;
            /** @description EC keys only; base64url */
            y?: string;
        };
        RoleListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            roles: components["schemas"]["RoleResponse"][];
        };
        RoleResponse: {
            /** @description admin and member: cannot be deleted */
            built_in: boolean;
            /** Format: date-time */
            created_at: string;
            description: string;
            /** @example billing_manager */
            key: string;
            /** @example Billing manager */
            name: string;
            /**
             * @description System permissions first, then by key; admin holds every one
             * @example [
             *       "invoices:read"
             *     ]
             */
            permissions: string[];
            /** Format: date-time */
            updated_at: string;
        };
        RotateSigningKeyDto: {
            /**
             * @description Which kind of key to rotate: `ES256` (access tokens, and ID tokens by default) or `RS256` (ID tokens of OpenID Connect clients that ask for RS256); keys of the other algorithm are untouched
             * @default ES256
             * @enum {string}
             */
            algorithm?: "ES256" | "RS256";
        };
        SamlCertificateResponse: {
            /** @example AB:CD:… */
            fingerprint_sha256: string;
            /** Format: date-time */
            not_after: string;
            /** Format: date-time */
            not_before: string;
        };
        SamlConnectionDto: {
            /**
             * @description Accept responses the IdP sends unasked (no InResponseTo)
             * @default false
             */
            allow_idp_initiated?: boolean;
            /** @description Where to fetch the metadata from instead (http or https; an address OAUTH_ALLOW_PRIVATE_URLS refuses is refused) */
            idp_metadata_url?: string;
            /** @description The IdP's metadata (EntityDescriptor): its entity id, HTTP-Redirect SSO URL and signing certificates are read from it */
            idp_metadata_xml?: string;
        };
        SamlServiceProviderResponse: {
            acs_url: string;
            entity_id: string;
            metadata_url: string;
        };
        SamlSettingsResponse: {
            allow_idp_initiated: boolean;
            certificates: components["schemas"]["SamlCertificateResponse"][];
            /** @description The IdP's entityID: the Issuer of its responses */
            idp_entity_id: string;
            idp_metadata_url: string | null;
            /** @description Where sign-ins are sent (HTTP-Redirect binding) */
            sso_url: string;
        };
        SigningKeyListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            signing_keys: components["schemas"]["SigningKeyResponse"][];
        };
        SigningKeyResponse: {
            /** @enum {string} */
            algorithm: "ES256" | "RS256";
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            public_jwk: components["schemas"]["PublicJwkResponse"];
            /** @enum {string} */
            status: "active" | "retiring" | "retired" | "revoked";
        };
        SmsSettingsDto: {
            /**
             * @description ISO 3166-1 alpha-2 codes (upper case), or ["*"] for any country
             * @default [
             *       "*"
             *     ]
             * @example [
             *       "FR",
             *       "BE"
             *     ]
             */
            allowed_countries?: string[];
            /**
             * @description SMS the project may send in an hour, all users together
             * @default 100
             */
            max_per_hour?: number;
        };
        SomeDependencies: {
            /** @description Redis */
            cache?: components["schemas"]["DependencyHealth"];
            /** @description PostgreSQL */
            database?: components["schemas"]["DependencyHealth"];
        };
        SsoAttributeMappingDto: {
            /** @example email */
            email?: string;
            /** @example family_name */
            family_name?: string;
            /** @example given_name */
            given_name?: string;
            /** @example groups */
            groups?: string;
        };
        SsoAttributeMappingResponse: {
            email?: string;
            family_name?: string;
            given_name?: string;
            groups?: string;
        };
        SsoConnectionListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            sso_connections: components["schemas"]["SsoConnectionResponse"][];
        };
        SsoConnectionResponse: {
            attribute_mapping: components["schemas"]["SsoAttributeMappingResponse"];
            /** Format: date-time */
            created_at: string;
            domains: string[];
            enabled: boolean;
            enforce: boolean;
            group_roles: {
                [key: string]: string;
            };
            /** Format: uuid */
            id: string;
            jit: components["schemas"]["SsoJitResponse"];
            name: string;
            /** @description OpenID Connect connections */
            oidc?: components["schemas"]["OidcSettingsResponse"];
            /** Format: uuid */
            organization_id: string;
            /** @description OpenID Connect connections: the redirect URI to register at the IdP */
            redirect_uri?: string;
            /** @description SAML connections */
            saml?: components["schemas"]["SamlSettingsResponse"];
            /** @description SAML connections */
            sp?: components["schemas"]["SamlServiceProviderResponse"];
            /** @enum {string} */
            type: "saml" | "oidc";
            /** Format: date-time */
            updated_at: string;
        };
        SsoJitDto: {
            /** @default member */
            default_role?: string;
            /** @default true */
            enabled?: boolean;
        };
        SsoJitResponse: {
            /** @example member */
            default_role: string;
            enabled: boolean;
        };
        StatsProjectResponse: {
            /** Format: uuid */
            id: string;
            name: string;
        };
        StatsResponse: {
            /** @description Sessions of the tenant live now: neither revoked nor expired */
            active_sessions: number;
            /** @description Live sessions per project, projects with none left out, by project_id */
            active_sessions_by_project: components["schemas"]["ProjectSessionCountResponse"][];
            /** @description One row per UTC day and project with at least one non-zero count, by date then project_id */
            daily: components["schemas"]["DailyStatsResponse"][];
            /**
             * Format: date
             * @description First UTC day of the window
             * @example 2026-10-27
             */
            from: string;
            /** @description Every project of the tenant, the console project included, oldest first */
            projects: components["schemas"]["StatsProjectResponse"][];
            /**
             * Format: date
             * @description Last UTC day of the window (today), included
             * @example 2026-11-25
             */
            to: string;
            totals: components["schemas"]["StatsTotalsResponse"];
            webhook_deliveries: components["schemas"]["WebhookDeliveryStatsResponse"];
        };
        StatsTotalsResponse: {
            /** @description `user.sign_in_failed` events: attempts refused after a check (wrong password or unknown identifier, disabled account, refused passkey, failed social sign-in, wrong second-factor code) */
            failed_sign_ins: number;
            /** @description `user.locked` events: a lock starting (an identifier's password lock or a user's second-factor lock) */
            lockouts: number;
            /** @description `session.created` events: sessions started by any way in (password, magic link, passkey, social, an MFA challenge completed), the one a sign-up opens included */
            sign_ins: number;
            /** @description `user.created` events whose actor is the user (password sign-up, or a first social sign-in that created the account); users the system provisions are not counted */
            sign_ups: number;
        };
        UpdateApiResourceDto: {
            /** @description null: back to the project's access_token_ttl_seconds */
            access_token_ttl_seconds?: number | null;
            allow_dynamic_clients?: boolean;
            /** @example https://mcp.example.com/mcp */
            identifier?: string;
            name?: string;
            scopes?: components["schemas"]["ApiResourceScopeDto"][];
        };
        UpdateDomainDto: {
            /** @description A role key of the project, given to users who join through the domain */
            default_role?: string;
            /**
             * @description What a user whose verified email is at the (verified) domain gets: nothing, a suggestion to join, or the membership
             * @enum {string}
             */
            enrollment?: "none" | "suggest" | "auto_join";
            /** @description Why the admin verifies it (audited); only with `status` */
            reason?: string;
            /**
             * @description Verifies the domain without its TXT record; `reason` is then required
             * @enum {string}
             */
            status?: "verified";
        };
        UpdateMemberDto: {
            /**
             * @description A role key of the organization's project: admin, member or a custom role
             * @example member
             */
            role: string;
        };
        UpdateOAuthClientDto: {
            first_party?: boolean;
            grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg?: "ES256" | "RS256";
            name?: string;
            post_logout_redirect_uris?: string[];
            redirect_uris?: string[];
            /** @description PKCE on every authorization request; `false` only for a confidential client (it then uses the OpenID Connect `nonce`) */
            require_pkce?: boolean;
            /** @description Authorization requests only through the pushed authorization request endpoint (RFC 9126 §6) */
            require_pushed_authorization_requests?: boolean;
            scopes?: ("openid" | "profile" | "email" | "offline_access" | "organizations")[];
        };
        UpdateOrganizationDto: {
            /** @description Replaces the whole metadata object (at most 8 KiB as JSON) */
            metadata?: Record<string, unknown>;
            name?: string;
            /** @description Its policies; given members replace theirs, others stay */
            settings?: components["schemas"]["OrganizationSettingsDto"];
            slug?: string;
        };
        UpdateProjectDto: {
            /**
             * @example [
             *       "https://app.example.com"
             *     ]
             */
            allowed_origins?: string[];
            name?: string;
            /**
             * @example [
             *       "https://app.example.com/callback"
             *     ]
             */
            redirect_urls?: string[];
            settings?: components["schemas"]["ProjectSettingsDto"];
        };
        UpdateRoleDto: {
            description?: string;
            name?: string;
            /** @description The whole new list; admin's cannot be narrowed (409) */
            permissions?: string[];
        };
        UpdateSsoConnectionDto: {
            attribute_mapping?: components["schemas"]["SsoAttributeMappingDto"];
            /**
             * @description Verified domains of the organization whose people sign in through it
             * @example [
             *       "acme.com"
             *     ]
             */
            domains?: string[];
            /** @default true */
            enabled?: boolean;
            /**
             * @description People at the connection's domains may sign in only through it (403 sso-required elsewhere)
             * @default false
             */
            enforce?: boolean;
            /**
             * @description IdP group → role key of the project; at each sign-in the member gets the role of their first mapped group, else jit.default_role
             * @example {
             *       "acme-admins": "admin",
             *       "billing": "billing"
             *     }
             */
            group_roles?: {
                [key: string]: string;
            };
            jit?: components["schemas"]["SsoJitDto"];
            /** @example Acme Okta */
            name?: string;
            /** @description With type oidc: required */
            oidc?: components["schemas"]["OidcConnectionDto"];
            /** @description With type saml: required */
            saml?: components["schemas"]["SamlConnectionDto"];
        };
        UpdateUserDto: {
            /** @description Mark the email verified (or not) on the user's behalf (docs/api-contract.md §13) */
            email_verified?: boolean;
            /** @description Replaces the whole metadata object (at most 8 KiB as JSON) */
            metadata?: Record<string, unknown>;
            /**
             * @description `disabled` revokes every session; `active` also clears a lockout
             * @enum {string}
             */
            status?: "active" | "disabled";
        };
        UpdateWebhookDto: {
            description?: string | null;
            /** @description true re-enables (clears disabled_reason) */
            enabled?: boolean;
            /**
             * @example [
             *       "*"
             *     ]
             */
            events?: string[];
            url?: string;
        };
        UserDetailResponse: {
            /** Format: date-time */
            created_at: string;
            email: string;
            email_verified: boolean;
            /** Format: uuid */
            id: string;
            /** @description An administrator of the tenant (console) */
            is_admin: boolean;
            /** Format: date-time */
            last_sign_in_at: string | null;
            /**
             * Format: date-time
             * @description While too many wrong passwords (for the email or username) or second-factor codes lock the account: when the lock ends; null when none holds. `PATCH {status: "active"}` unlocks
             */
            locked_until: string | null;
            /** @description Free-form JSON object */
            metadata: {
                [key: string]: unknown;
            };
            /** @description Enabled factors, sorted */
            mfa_factors: ("sms" | "totp")[];
            organizations: components["schemas"]["UserOrganizationResponse"][];
            /** Format: uuid */
            project_id: string;
            sessions: components["schemas"]["UserSessionResponse"][];
            /** @enum {string} */
            status: "active" | "disabled";
            /** Format: date-time */
            updated_at: string;
            /** @description Lower case */
            username: string | null;
        };
        UserFactorListResponse: {
            factors: components["schemas"]["UserFactorResponse"][];
        };
        UserFactorResponse: {
            /** Format: date-time */
            created_at: string;
            /** @description Opaque; `DELETE …/factors/{factor_id}` removes it (for `backup_codes`, the whole set) */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            /** @description A passkey's name */
            name: string | null;
            /**
             * @description SMS: the number with all but its first three and last two characters hidden
             * @example +49•••••••12
             */
            phone_number_hint: string | null;
            /** @description Backup codes: how many are still unused */
            remaining: number | null;
            /** @enum {string} */
            type: "totp" | "sms" | "passkey" | "backup_codes";
        };
        UserListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            users: components["schemas"]["UserResponse"][];
        };
        UserOrganizationResponse: {
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            joined_at: string;
            name: string;
            /**
             * @description A role key of the organization's project
             * @example member
             */
            role: string;
            slug: string;
        };
        UserResponse: {
            /** Format: date-time */
            created_at: string;
            email: string;
            email_verified: boolean;
            /** Format: uuid */
            id: string;
            /** @description An administrator of the tenant (console) */
            is_admin: boolean;
            /** Format: date-time */
            last_sign_in_at: string | null;
            /** @description Free-form JSON object */
            metadata: {
                [key: string]: unknown;
            };
            /** @description Enabled factors, sorted */
            mfa_factors: ("sms" | "totp")[];
            /** Format: uuid */
            project_id: string;
            /** @enum {string} */
            status: "active" | "disabled";
            /** Format: date-time */
            updated_at: string;
            /** @description Lower case */
            username: string | null;
        };
        UserSessionResponse: {
            /**
             * @description How the session began
             * @example password
             */
            auth_method: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
            /** @description The admin who opened this session by impersonation (docs/api-contract.md §13); null for the user's own */
            impersonator_id: string | null;
            ip_address: string | null;
            /** Format: date-time */
            last_active_at: string;
            user_agent: string | null;
        };
        WebhookCreatedResponse: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /**
             * @description `gone` once the receiver answered 410; null while enabled or disabled by an admin
             * @enum {string|null}
             */
            disabled_reason: "gone" | null;
            enabled: boolean;
            /** @description Event types it receives, or `["*"]` for all */
            events: ("user.created" | "user.updated" | "user.deleted" | "users.imported" | "users.exported" | "users.exported_with_secrets" | "user.locked" | "user.sign_in_failed" | "user.password_reset_sent" | "user.mfa_reset" | "user.impersonated" | "session.created" | "session.revoked" | "session.reauthenticated" | "email.verified" | "password.reset" | "password.changed" | "mfa.enabled" | "mfa.disabled" | "mfa.backup_codes.regenerated" | "passkey.registered" | "passkey.deleted" | "passkey.removed" | "oauth.linked" | "organization.created" | "organization.updated" | "organization.deleted" | "organization.member.added" | "organization.member.updated" | "organization.member.removed" | "organization.domain.created" | "organization.domain.verified" | "organization.domain.updated" | "organization.domain.deleted" | "sso_connection.created" | "sso_connection.updated" | "sso_connection.deleted" | "invitation.created" | "invitation.accepted" | "invitation.revoked" | "project.created" | "project.updated" | "project.deleted" | "api_key.created" | "api_key.revoked" | "signing_key.rotated" | "signing_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "oauth_client.created" | "oauth_client.updated" | "oauth_client.deleted" | "oauth_client.secret_rotated" | "api_resource.created" | "api_resource.updated" | "api_resource.deleted" | "role.created" | "role.updated" | "role.deleted" | "permission.created" | "permission.deleted" | "oauth_grant.created" | "oauth_grant.revoked" | "oauth_token.failed" | "webhook.test" | "*")[];
            /** Format: uuid */
            id: string;
            /** @description The `whsec_…` signing secret, shown this once only */
            secret: string;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        WebhookDeliveryDetailResponse: {
            attempt: number;
            /** Format: date-time */
            created_at: string;
            duration_ms: number | null;
            /** @enum {string|null} */
            error: "connection_refused" | "timeout" | "dns_failure" | "tls_error" | "blocked_address" | "redirect_not_followed" | "http_error" | null;
            /**
             * Format: uuid
             * @description The event sent (`webhook-id`); the same for every attempt of it
             */
            event_id: string;
            /** @example user.created */
            event_type: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When the next attempt is due, while one is scheduled
             */
            next_attempt_at: string | null;
            request: components["schemas"]["DeliveryRequestResponse"];
            /** @description The receiver's answer; null when none came (or the attempt is not made yet) */
            response?: {
                /** @description The first 4 KiB of the receiver's body, as text */
                body: string;
                headers: {
                    [key: string]: string;
                };
                status: number;
            } | null;
            /** @description The receiver's HTTP status; null when none came back */
            response_status: number | null;
            /**
             * @description `pending` only for an attempt queued and not yet made
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
        };
        WebhookDeliveryListResponse: {
            deliveries: components["schemas"]["WebhookDeliveryResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        WebhookDeliveryResponse: {
            attempt: number;
            /** Format: date-time */
            created_at: string;
            duration_ms: number | null;
            /**
             * Format: uuid
             * @description The event sent (`webhook-id`); the same for every attempt of it
             */
            event_id: string;
            /** @example user.created */
            event_type: string;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When the next attempt is due, while one is scheduled
             */
            next_attempt_at: string | null;
            /** @description The receiver's HTTP status; null when none came back */
            response_status: number | null;
            /**
             * @description `pending` only for an attempt queued and not yet made
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
        };
        WebhookDeliveryStatsResponse: {
            /** @description Attempts that failed (any other answer or none, a refused address, a webhook disabled meanwhile); a retry, when one follows, is a record of its own */
            failed: number;
            /** @description Attempts queued and not yet made */
            pending: number;
            /** @description Attempts the receiver answered with a 2xx */
            succeeded: number;
            /** @description `succeeded / (succeeded + failed)`; null when no attempt was made */
            success_rate: number | null;
        };
        WebhookListResponse: {
            pagination: components["schemas"]["PaginationResponse"];
            webhooks: components["schemas"]["WebhookResponse"][];
        };
        WebhookResponse: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /**
             * @description `gone` once the receiver answered 410; null while enabled or disabled by an admin
             * @enum {string|null}
             */
            disabled_reason: "gone" | null;
            enabled: boolean;
            /** @description Event types it receives, or `["*"]` for all */
            events: ("user.created" | "user.updated" | "user.deleted" | "users.imported" | "users.exported" | "users.exported_with_secrets" | "user.locked" | "user.sign_in_failed" | "user.password_reset_sent" | "user.mfa_reset" | "user.impersonated" | "session.created" | "session.revoked" | "session.reauthenticated" | "email.verified" | "password.reset" | "password.changed" | "mfa.enabled" | "mfa.disabled" | "mfa.backup_codes.regenerated" | "passkey.registered" | "passkey.deleted" | "passkey.removed" | "oauth.linked" | "organization.created" | "organization.updated" | "organization.deleted" | "organization.member.added" | "organization.member.updated" | "organization.member.removed" | "organization.domain.created" | "organization.domain.verified" | "organization.domain.updated" | "organization.domain.deleted" | "sso_connection.created" | "sso_connection.updated" | "sso_connection.deleted" | "invitation.created" | "invitation.accepted" | "invitation.revoked" | "project.created" | "project.updated" | "project.deleted" | "api_key.created" | "api_key.revoked" | "signing_key.rotated" | "signing_key.revoked" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "oauth_client.created" | "oauth_client.updated" | "oauth_client.deleted" | "oauth_client.secret_rotated" | "api_resource.created" | "api_resource.updated" | "api_resource.deleted" | "role.created" | "role.updated" | "role.deleted" | "permission.created" | "permission.deleted" | "oauth_grant.created" | "oauth_grant.revoked" | "oauth_token.failed" | "webhook.test" | "*")[];
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        WebhookSecretRotatedResponse: {
            /**
             * @description The new `whsec_…` signing secret; for 24 hours deliveries carry both signatures (`v1,<new> v1,<old>`)
             * @example whsec_…
             */
            secret: string;
        };
        WebhookTestQueuedResponse: {
            /**
             * Format: uuid
             * @description The `id` of the event payload (`webhook-id`)
             */
            event_id: string;
            /** @enum {string} */
            type: "webhook.test";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    HealthController_full: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Database and cache up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthUpResponse"];
                };
            };
            /** @description A dependency down (named in `error`) or shutting down; `application/json`, not a problem */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDownResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    HealthController_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthLiveResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    HealthController_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Database and cache up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthUpResponse"];
                };
            };
            /** @description A dependency down (named in `error`) or shutting down; `application/json`, not a problem */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthDownResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    AuditController_query: {
        parameters: {
            query?: {
                /** @description Exact action (`user.created`), or a prefix ending in `.*` (`user.*`) */
                action?: unknown;
                /** @description Events this user or API key did */
                actor_id?: unknown;
                /** @description YYYY-MM-DD (the whole UTC day is included) or ISO 8601; inclusive */
                end_date?: unknown;
                /** @description 1–100, default 20 */
                limit?: unknown;
                page?: unknown;
                /** @description Events of one of the tenant's projects */
                project_id?: unknown;
                /** @description YYYY-MM-DD (UTC day) or ISO 8601; inclusive */
                start_date?: unknown;
                /** @description Events whose actor or resource is this user */
                user_id?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    AuditController_export: {
        parameters: {
            query: {
                /** @description Exact action (`user.created`), or a prefix ending in `.*` (`user.*`) */
                action?: unknown;
                /** @description Events this user or API key did */
                actor_id?: unknown;
                /** @description YYYY-MM-DD (the whole UTC day is included) or ISO 8601; inclusive */
                end_date?: unknown;
                format: "csv" | "ndjson";
                /** @description Events of one of the tenant's projects */
                project_id?: unknown;
                /** @description YYYY-MM-DD (UTC day) or ISO 8601; inclusive */
                start_date?: unknown;
                /** @description Events whose actor or resource is this user */
                user_id?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events, as an attachment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationsController_list: {
        parameters: {
            query?: {
                limit?: unknown;
                page?: unknown;
                project_id?: unknown;
                q?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrganizationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDomainDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainResponse"];
                };
            };
            /** @description `conflict`: the organization already has this domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDomainDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainResponse"];
                };
            };
            /** @description `conflict`: another organization of the project has the domain verified */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationDomainsController_verify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainResponse"];
                };
            };
            /** @description `conflict`: the TXT record does not hold the value (`found` lists what it holds), or another organization of the project has the domain verified */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `service-unavailable`: the DNS servers did not answer in time or failed */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    InvitationsController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    InvitationsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    InvitationsController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationMembersController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationMembersController_add: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddMemberDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationMembersController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OrganizationMembersController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMemberDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SsoConnectionsController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoConnectionListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SsoConnectionsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSsoConnectionDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoConnectionResponse"];
                };
            };
            /** @description `conflict`: another SSO connection of the organization serves one of the domains */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SsoConnectionsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoConnectionResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SsoConnectionsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SsoConnectionsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSsoConnectionDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoConnectionResponse"];
                };
            };
            /** @description `conflict`: another SSO connection of the organization serves one of the domains */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ProjectsController_list: {
        parameters: {
            query?: {
                limit?: unknown;
                page?: unknown;
                q?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ProjectsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProjectDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ProjectsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ProjectsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `reauthentication-required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ProjectsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProjectDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiKeysController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiKeysController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreatedResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiKeysController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiResourcesController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiResourcesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiResourceDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiResourcesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                resource_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiResourcesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                resource_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ApiResourcesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                resource_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiResourceDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientCreatedResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthClientDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    OAuthClientsController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientSecretRotatedResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PermissionsController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PermissionsController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePermissionDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    PermissionsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RolesController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RolesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RolesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RolesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    RolesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SigningKeysController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SigningKeyListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SigningKeysController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SigningKeyResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    SigningKeysController_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateSigningKeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SigningKeyResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UserTransferController_export: {
        parameters: {
            query?: {
                include_password_hashes?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One user a line, each line an import line (docs/api-contract.md §12) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UserTransferController_import: {
        parameters: {
            query?: {
                allow_weak_hashes?: "true" | "false";
                emit_events?: "true" | "false";
                mem_cost?: unknown;
                /** @description A line whose email or external id names an existing user: `skip` (default), `update` (its members replace the user’s; for a user who has signed in or changed credentials here, only metadata and external id), or `conflict` (reported) */
                on_conflict?: "skip" | "update" | "conflict";
                rounds?: unknown;
                /** @description Firebase scrypt: base64 */
                salt_separator?: unknown;
                /** @description Firebase scrypt: the project's base64 signer key */
                signer_key?: unknown;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReportResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    StatsController_get: {
        parameters: {
            query?: {
                /** @description 1–90 UTC days, today included; default 30 */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_list: {
        parameters: {
            query?: {
                /** @description 1–100, default 20 */
                limit?: unknown;
                page?: unknown;
                project_id?: unknown;
                /** @description Case-insensitive literal substring of email or username */
                q?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserDto"];
            };
        };
        responses: {
            /** @description The admin user resource */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetailResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserDto"];
            };
        };
        responses: {
            /** @description The user as `GET` shows it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetailResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_listFactors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFactorListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_removeAllFactors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every factor removed (none left is also 204) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `reauthentication-required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_removeFactor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An `id` from `GET …/factors` */
                factor_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `reauthentication-required`: the admin's proof is older than the console project's `reauthentication_max_age_seconds` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_impersonate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImpersonateUserDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImpersonationLinkResponse"];
                };
            };
            /** @description `reauthentication-required`, or `forbidden` for an admin of the tenant */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_sendPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            /** @description `{}`: the mail is queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, unknown>;
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_revokeSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every live session revoked (none left is also 204) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    UsersController_revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                /** @description A session of the user, as `GET /v1/admin/users/{id}` lists them */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; the user stays active */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreatedResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_deliveries: {
        parameters: {
            query?: {
                /** @description Exact event type, e.g. user.created */
                event_type?: unknown;
                limit?: number;
                page?: number;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryListResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_delivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetailResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            /** @description The attempt queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_rotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotatedResponse"];
                };
            };
            /** @description `reauthentication-required` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    WebhooksController_test: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoFieldsDto"];
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestQueuedResponse"];
                };
            };
            /** @description A problem (RFC 9457): every answer that is not a success */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
