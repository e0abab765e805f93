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
    "/v1/auth/email/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the email: mails a confirmation link to the new address (202 {}); needs a recent authentication */
        post: operations["EmailChangeController_change"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/email/change/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the new email with the token from the mail (same as verify-email/confirm); 409 when it was taken meanwhile */
        post: operations["EmailChangeController_confirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/impersonation/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open an admin's impersonation link (`POST /v1/admin/users/{id}/impersonate`): a session of the user whose access tokens carry `act: {sub: <admin id>}` (at most 15 minutes each, refreshable until 60 minutes after opening) */
        get: operations["ImpersonationController_verify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an organization invitation as the signed-in invitee: `{organization: {id, name}, role}` */
        post: operations["InvitationsController_accept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's public signing keys (JWKS): the active ES256 and RS256 keys and the retiring keys still verifying */
        get: operations["JwksController_jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/magic-link/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a sign-in link when the account exists; 202 {} for any email */
        post: operations["MagicLinksController_send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/magic-link/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow the link: 302 to the redirect URL with session cookies, or with ?error=invalid_token */
        get: operations["MagicLinksController_verify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user; always 200, `{user: null}` without a valid session */
        get: operations["AccountsController_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/{factor}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a factor (totp or sms); needs a recent authentication */
        delete: operations["MfaController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/backup-codes/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ten new backup codes (shown once); the old ones stop working; needs a recent authentication */
        post: operations["MfaController_regenerateBackupCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/sms/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** During sign-in: text a code for the mfa_token (202 {}) */
        post: operations["MfaController_sendSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/sms/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start SMS enrolment: texts a 6-digit code to the number (202 {}); needs a recent authentication */
        post: operations["MfaController_setupSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/sms/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm SMS enrolment with the texted code */
        post: operations["MfaController_verifySms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/totp/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start TOTP enrolment: secret, otpauth URI and 10 backup codes (shown once); needs a recent authentication */
        post: operations["MfaController_setupTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/totp/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm TOTP enrolment with the first code */
        post: operations["MfaController_verifyTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/mfa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a sign-in that answered mfa_required: {user, session} and cookies */
        post: operations["MfaController_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oauth/{provider}/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start social sign-in: stores state and PKCE verifier, binds them to the browser, 302 to the provider */
        get: operations["OAuthController_authorize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oauth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Provider redirect: 302 to the stored redirect URL with session cookies, `?error=…`, or `?mfa_required=true&mfa_token=…` */
        get: operations["OAuthController_callbackGet"];
        put?: never;
        /** Provider form_post (Apple): same as the GET callback, parameters in the form body */
        post: operations["OAuthController_callbackPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/interactions/{uid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the OpenID Connect provider asks of the user: sign in (`login`) or consent (`consent`), for which client and scopes; 400 invalid-token when unknown, finished or expired */
        get: operations["OidcInteractionsController_describe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/interactions/{uid}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The user declines: `redirect_to` ends at the client with error=access_denied */
        post: operations["OidcInteractionsController_abort"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/interactions/{uid}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign the user in to the provider with their session (MFA already satisfied); the browser then navigates to `redirect_to`. First-party clients need no separate consent. 403 reauthentication-required when the client asked for a fresh sign-in, or for `urn:gatehouse:loa:2` (acr_values) and the session has no second factor; 403 forbidden (member `required_acr`) when the user has neither a second factor nor a passkey, or for an impersonated session (docs/api-contract.md §13) */
        post: operations["OidcInteractionsController_complete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/interactions/{uid}/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant the client the given scopes (a subset of the requested ones); the browser then navigates to `redirect_to`. 403 forbidden for an impersonated session */
        post: operations["OidcInteractionsController_consent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's organizations in the project with their role and permissions */
        get: operations["OrganizationsController_mine"];
        put?: never;
        /** Create an organization with the user as its admin (201), when the project's settings.organizations.allow_user_create is true (else 403) */
        post: operations["OrganizationsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete the organization (`org:delete`), its members and invitations */
        delete: operations["OrganizationsController_deleteOrganization"];
        options?: never;
        head?: never;
        /** Rename the organization or change its slug (`org:settings:manage`; 403 without, 404 for a non-member); its metadata is the application's */
        patch: operations["OrganizationsController_updateOrganization"];
        trace?: never;
    };
    "/v1/auth/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite an email address to the organization (`org:members:manage`) with a role granting no more than the caller's; mails the 7-day single-use link the admin API sends (201) */
        post: operations["OrganizationsController_invite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's members (`org:members:read`), oldest first */
        get: operations["OrganizationsController_members"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations/{id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (`org:members:manage`), or leave with `me` (no permission needed); the last admin stays (409) */
        delete: operations["OrganizationsController_removeMember"];
        options?: never;
        head?: never;
        /** Change a member's role (`org:members:manage`): never to or from a role granting more than the caller's; the last admin stays (409) */
        patch: operations["OrganizationsController_updateMember"];
        trace?: never;
    };
    "/v1/auth/organizations/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make one of the user's organizations the session's active one (or none with null): a new access token with the `org` claim, kept across refreshes; not a member is 403 */
        post: operations["OrganizationsController_setActive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organizations the user may join: verified domains with enrollment `suggest` at the user's verified email's domain, of organizations they are not in (none for an unverified email) */
        get: operations["OrganizationsController_suggested"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/organizations/suggestions/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a suggested organization with the domain's default role: the membership as GET /v1/auth/organizations lists it; no such suggestion is 404 */
        post: operations["OrganizationsController_acceptSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkey/authenticate/begin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** PublicKeyCredentialRequestOptions; omit email for discoverable credentials */
        post: operations["PasskeysController_authenticateBegin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkey/authenticate/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify the assertion and sign in (satisfies MFA; allowed while password sign-in is locked) */
        post: operations["PasskeysController_authenticateComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkey/register/begin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** PublicKeyCredentialCreationOptions for the signed-in user (challenge valid 5 min); needs a recent authentication */
        post: operations["PasskeysController_registerBegin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkey/register/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify the attestation and store the passkey (201 with the passkey); refused → 400 validation-error */
        post: operations["PasskeysController_registerComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's passkeys */
        get: operations["PasskeysController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of the caller's passkeys (404 when it is not theirs); needs a recent authentication */
        delete: operations["PasskeysController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password ({current_password, new_password}; 200 {}); ends every other session; needs a recent authentication */
        post: operations["PasswordsController_change"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset link when the account exists; 202 {} either way (3 an hour per email) */
        post: operations["PasswordResetController_forgot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset token; revokes every session; does not sign in */
        post: operations["PasswordResetController_reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/password/reset/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a reset token without using it (400 invalid-token when it cannot be used) */
        post: operations["PasswordResetController_validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/reauthenticate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prove a credential again ({password}, {factor, code} or a passkey {credential}): a fresh access token, same session, new auth_time */
        post: operations["ReauthenticationController_reauthenticate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/reauthenticate/sms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Text a code to the enrolled phone for {factor: "sms", code} (202 {}) */
        post: operations["ReauthenticationController_sendSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the refresh token cookie and issue a new access token */
        post: operations["SessionsController_refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's active sessions */
        get: operations["SessionsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the caller's sessions (404 when it is not theirs) */
        delete: operations["SessionsController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with identifier and password; or an MFA challenge when the user has MFA */
        post: operations["AccountsController_signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the current session and clear the cookies (204) */
        post: operations["SessionsController_signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account with email and password; signs in (201) */
        post: operations["AccountsController_signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sso/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The enabled SSO connection of the email's domain, or null; the answer depends on the domain alone (no account is looked up) */
        post: operations["SsoController_discover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm an email with the token from the mail (a verification or an email change) */
        post: operations["EmailVerificationController_confirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a verification link to the signed-in user (202 {}; 3 an hour per user) */
        post: operations["EmailVerificationController_send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sso/saml/{connectionId}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The service provider's SAML metadata for a SAML connection: its entity id, its HTTP-POST assertion consumer service and its signing certificate (AuthnRequests are signed; assertions must be) */
        get: operations["SamlMetadataController_metadata"];
        put?: never;
        post?: never;
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
        AccessTokenResponse: {
            /** @description An ES256 JWT (docs/api-contract.md §2) */
            access_token: string;
            /** @description Seconds until it expires */
            expires_in: number;
        };
        ActiveOrganizationDto: {
            /** Format: uuid */
            organization_id: string | null;
        };
        AllDependencies: {
            /** @description Redis */
            cache: components["schemas"]["DependencyHealth"];
            /** @description PostgreSQL */
            database: components["schemas"]["DependencyHealth"];
        };
        AuthenticatorSelection: {
            /** @enum {string} */
            authenticatorAttachment?: "platform" | "cross-platform";
            requireResidentKey?: boolean;
            /** @enum {string} */
            residentKey?: "required" | "preferred" | "discouraged";
            /** @enum {string} */
            userVerification?: "required" | "preferred" | "discouraged";
        };
        BackupCodesResponse: {
            backup_codes: string[];
        };
        BeginPasskeyAuthenticationDto: {
            /**
             * @description Omit for discoverable credentials (the authenticator picks the account)
             * @example ada@example.com
             */
            email?: string;
        };
        ChangeEmailDto: {
            /** @example ada@new.example.com */
            email: string;
        };
        ChangePasswordDto: {
            current_password: string;
            /** @description 8–128 characters (NFKC), not a common password, not your email or username */
            new_password: string;
        };
        CodeDto: {
            /** @example 123456 */
            code: string;
        };
        CompletePasskeyAuthenticationDto: {
            /** @description The WebAuthn assertion response as JSON (AuthenticationResponseJSON, e.g. from @simplewebauthn/browser startAuthentication) */
            credential: Record<string, unknown>;
        };
        CompletePasskeyRegistrationDto: {
            /** @description The WebAuthn attestation response as JSON (RegistrationResponseJSON, e.g. from @simplewebauthn/browser startRegistration) */
            credential: Record<string, unknown>;
            /**
             * @description A label for the passkey (default "Passkey")
             * @example MacBook Touch ID
             */
            name?: string;
        };
        ConfirmedUser: {
            /** @description The confirmed address (the new one after an email change) */
            email: string;
            /** @enum {boolean} */
            email_verified: true;
            /** Format: uuid */
            id: string;
        };
        ConsentDto: {
            /**
             * @description The scopes the user grants: a subset of the requested ones (`openid` is always kept)
             * @example [
             *       "openid",
             *       "email"
             *     ]
             */
            scopes: string[];
        };
        CreateMyOrganizationDto: {
            /** @example Acme */
            name: string;
            /** @description Default: made from the name (with a random suffix when taken) */
            slug?: string;
        };
        CredentialDescriptor: {
            /** @description The credential id, base64url */
            id: string;
            transports?: ("ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb")[];
            /** @enum {string} */
            type: "public-key";
        };
        CredentialParameters: {
            /**
             * @description A COSE algorithm: -7 (ES256), -8 (EdDSA), -257 (RS256)
             * @example -7
             */
            alg: number;
            /** @enum {string} */
            type: "public-key";
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
        EmailConfirmedResponse: {
            user: components["schemas"]["ConfirmedUser"];
        };
        FactorEnabledResponse: {
            /** @enum {boolean} */
            enabled: true;
            /** @enum {string} */
            factor: "totp" | "sms";
        };
        ForgotPasswordDto: {
            /** @example ada@example.com */
            email: string;
            /** @description Where the mailed link goes (with `?token=`): one of the project's redirect URLs (the hosted sign-in page for a project whose OpenID Connect provider is on). Default: `settings.password_reset_url`, else the default redirect URL */
            redirect_url?: string;
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
        InteractionClientResponse: {
            client_id: string;
            first_party: boolean;
            name: string;
        };
        InteractionRedirectResponse: {
            /** @description Where the browser goes next (the provider, which continues to the client) */
            redirect_to: string;
        };
        InteractionResourceResponse: {
            /** @example https://mcp.example.com/mcp */
            identifier: string;
            /** @example MCP server */
            name: string;
            /** @description The requested scopes of this API */
            scopes: components["schemas"]["InteractionResourceScopeResponse"][];
        };
        InteractionResourceScopeResponse: {
            /**
             * @description The admin's words for the consent screen (may be empty)
             * @example Use the tools of the MCP server
             */
            description: string;
            /** @example mcp:tools */
            name: string;
        };
        InteractionResponse: {
            client: components["schemas"]["InteractionClientResponse"];
            /** @description The application asked to create an account (`prompt=create`, OpenID Connect Initiating User Registration): show sign-up first */
            create: boolean;
            /** Format: date-time */
            expires_at: string;
            /** @enum {string} */
            prompt: "login" | "consent";
            /** @description The project's API resources the request names (`resource`), with the requested scopes of each */
            resources: components["schemas"]["InteractionResourceResponse"][];
            scopes: string[];
            uid: string;
        };
        InvitationAcceptedResponse: {
            organization: components["schemas"]["InvitingOrganization"];
            /**
             * @description The resulting role key: an existing member keeps their role unless the invitation's is admin
             * @example member
             */
            role: string;
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
        InviteMemberDto: {
            /** @example grace@example.com */
            email: string;
            /** @default member */
            role?: string;
        };
        InvitingOrganization: {
            /** Format: uuid */
            id: string;
            name: string;
        };
        JwksResponse: {
            keys: components["schemas"]["PublicJwkResponse"][];
        };
        MeImpersonator: {
            email: string;
            /** Format: uuid */
            id: string;
        };
        MeOrganization: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description A role key of the project
             * @example member
             */
            role: string;
        };
        MeResponse: {
            /** @description The organization the session made active (POST /v1/auth/organizations/active), while the user is a member; else null */
            active_organization?: {
                /** Format: uuid */
                id: string;
                name: string;
                /**
                 * @example [
                 *       "invoices:read"
                 *     ]
                 */
                permissions: string[];
                /**
                 * @description A role key of the project
                 * @example member
                 */
                role: string;
                slug: string;
            } | null;
            /** @description The user's sessions that are neither revoked nor expired */
            active_sessions: number;
            /** @description Only in an impersonated session: the admin acting as the user */
            impersonator?: components["schemas"]["MeImpersonator"];
            /** @description By name */
            organizations: components["schemas"]["MeOrganization"][];
            user: components["schemas"]["MeUser"];
        };
        MeUser: {
            email: string;
            /** Format: uuid */
            id: string;
            is_admin: boolean;
            /** @description Enabled second factors (backup_code while unused codes remain beside a factor), in this order */
            mfa_factors: ("totp" | "sms" | "passkey" | "backup_code")[];
        };
        MfaChallengeResponse: {
            /**
             * @example [
             *       "totp",
             *       "backup_code"
             *     ]
             */
            available_factors: string[];
            /** @enum {boolean} */
            mfa_required: true;
            /** @description Opaque, 5 minutes, single use */
            mfa_token: string;
        };
        MfaTokenDto: {
            mfa_token: string;
        };
        MfaVerifyDto: {
            /** @description 6 digits for totp and sms; a backup code such as abcde-fghij */
            code: string;
            /** @enum {string} */
            factor: "totp" | "sms" | "backup_code";
            mfa_token: string;
        };
        MyMemberListResponse: {
            members: components["schemas"]["MyMemberResponse"][];
            pagination: components["schemas"]["PaginationResponse"];
        };
        MyMemberResponse: {
            /** Format: date-time */
            created_at: string;
            email: string;
            /** Format: uuid */
            organization_id: string;
            /** @example member */
            role: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            user_id: string;
            username: string | null;
        };
        MyOrganization: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description System permissions first, then by key
             * @example [
             *       "org:members:read",
             *       "invoices:read"
             *     ]
             */
            permissions: string[];
            /**
             * @description A role key of the project
             * @example member
             */
            role: string;
            slug: string;
        };
        MyOrganizationSettingsDto: {
            /** @description Members without a second factor cannot make it active (403 mfa-required) */
            require_mfa?: boolean;
        };
        MyOrganizationsResponse: {
            organizations: components["schemas"]["MyOrganization"][];
        };
        NoCurrentUserResponse: {
            /**
             * @description Always null
             * @enum {string|null}
             */
            user: null;
        };
        NoInteractionFieldsDto: Record<string, unknown>;
        OrganizationSuggestion: {
            /** @example acme.com */
            domain: string;
            /**
             * Format: uuid
             * @description The domain's id; accept it to join
             */
            id: string;
            organization: components["schemas"]["SuggestedOrganization"];
            /**
             * @description The role joining gives
             * @example member
             */
            role: string;
        };
        OrganizationSuggestionsResponse: {
            suggestions: components["schemas"]["OrganizationSuggestion"][];
        };
        PaginationResponse: {
            limit: number;
            page: number;
            /** @description Items matching the query, on every page */
            total: number;
        };
        PasskeyCreationOptionsResponse: {
            /** @enum {string} */
            attestation?: "none" | "indirect" | "direct" | "enterprise";
            attestationFormats?: ("fido-u2f" | "packed" | "android-safetynet" | "android-key" | "tpm" | "apple" | "none")[];
            authenticatorSelection?: components["schemas"]["AuthenticatorSelection"];
            /** @description base64url; single use */
            challenge: string;
            /** @description The user's passkeys already registered */
            excludeCredentials?: components["schemas"]["CredentialDescriptor"][];
            /** @description Client extension inputs (free-form), e.g. `{"credProps": true}` */
            extensions?: {
                [key: string]: unknown;
            };
            hints?: ("hybrid" | "security-key" | "client-device")[];
            pubKeyCredParams: components["schemas"]["CredentialParameters"][];
            rp: components["schemas"]["RelyingParty"];
            /** @description Milliseconds */
            timeout?: number;
            user: components["schemas"]["PasskeyUserEntity"];
        };
        PasskeyListResponse: {
            passkeys: components["schemas"]["PasskeyResponse"][];
        };
        PasskeyRequestOptionsResponse: {
            /** @description Empty without an email (discoverable credentials) */
            allowCredentials?: components["schemas"]["CredentialDescriptor"][];
            /** @description base64url; single use */
            challenge: string;
            /** @description Client extension inputs (free-form), e.g. `{"credProps": true}` */
            extensions?: {
                [key: string]: unknown;
            };
            hints?: ("hybrid" | "security-key" | "client-device")[];
            /** @description The RP ID */
            rpId?: string;
            /** @description Milliseconds */
            timeout?: number;
            /** @enum {string} */
            userVerification?: "required" | "preferred" | "discouraged";
        };
        PasskeyResponse: {
            backed_up: boolean;
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            device_type: "singleDevice" | "multiDevice";
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
        };
        PasskeyUserEntity: {
            /** @description The user's email */
            displayName: string;
            /** @description The user handle, base64url */
            id: string;
            /** @description The user's email */
            name: string;
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
        ReauthenticateDto: {
            /** @description 6 digits for totp and sms; a backup code such as abcde-fghij */
            code?: string;
            /** @description A WebAuthn assertion response (AuthenticationResponseJSON) of one of the user's passkeys */
            credential?: Record<string, unknown>;
            /** @enum {string} */
            factor?: "totp" | "sms" | "backup_code";
            /** @description The user's password */
            password?: string;
        };
        RelyingParty: {
            /** @description The RP ID: the project's `rp_id`, else the host of its first allowed origin */
            id?: string;
            /** @description The project's `rp_name` (default: the project name) */
            name: string;
        };
        ResetPasswordDto: {
            /** @description 8–128 characters (NFKC), not a common password, not your email or username */
            password: string;
            token: string;
        };
        ResetTokenValidResponse: {
            /** Format: date-time */
            expires_at: string;
            /** @enum {boolean} */
            valid: true;
        };
        SendMagicLinkDto: {
            /** @example ada@example.com */
            email: string;
            /** @description Where to land after sign-in; must be one of the project's redirect URLs */
            redirect_url?: string;
        };
        SessionListResponse: {
            sessions: components["schemas"]["SessionResponse"][];
        };
        SessionResponse: {
            /** Format: date-time */
            created_at: string;
            /** @description The session of the presented access token */
            current: boolean;
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
            /** @description The admin who opened this session by impersonation (docs/api-contract.md §13); null for your own */
            impersonator_id: string | null;
            ip_address: string | null;
            /**
             * Format: date-time
             * @description The last refresh, else the start
             */
            last_active_at: string;
            user_agent: string | null;
        };
        SignedInResponse: {
            session: components["schemas"]["SignedInSession"];
            user: components["schemas"]["SignedInUser"];
        };
        SignedInSession: {
            /** @description An ES256 JWT (docs/api-contract.md §2) */
            access_token: string;
            /** Format: uuid */
            id: string;
        };
        SignedInUser: {
            email: string;
            /** Format: uuid */
            id: string;
        };
        SignedUpResponse: {
            session: components["schemas"]["SignedUpSession"];
            user: components["schemas"]["SignedUpUser"];
        };
        SignedUpSession: {
            /** @description An ES256 JWT (docs/api-contract.md §2) */
            access_token: string;
            /** Format: date-time */
            expires_at: string;
            /** Format: uuid */
            id: string;
        };
        SignedUpUser: {
            email: string;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "active";
        };
        SignInDto: {
            /**
             * @description Email (or username)
             * @example ada@example.com
             */
            identifier: string;
            password: string;
        };
        SignUpDto: {
            /** @example ada@example.com */
            email: string;
            /** @description Free key/value content, at most 8 KiB as JSON */
            metadata?: Record<string, unknown>;
            /** @description 8–128 characters (NFKC), not a common password, not your email or username */
            password: string;
            /** @description 3–32 of a-z 0-9 _ . - (folded to lower case) */
            username?: string;
        };
        SmsSetupDto: {
            /**
             * @description E.164 phone number
             * @example +14155550123
             */
            phone_number: string;
        };
        SomeDependencies: {
            /** @description Redis */
            cache?: components["schemas"]["DependencyHealth"];
            /** @description PostgreSQL */
            database?: components["schemas"]["DependencyHealth"];
        };
        SsoDiscoverDto: {
            /** @example ada@acme.com */
            email: string;
        };
        SsoDiscoverResponse: {
            /** @description The enabled connection of the email's domain, or null */
            connection?: {
                /** Format: uuid */
                id: string;
                /** @example Acme Okta */
                name: string;
                /** Format: uuid */
                organization_id: string;
                /** @enum {string} */
                type: "saml" | "oidc";
            } | null;
        };
        SuggestedOrganization: {
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
        };
        TokenDto: {
            /** @description The token from the link in the mail */
            token: string;
        };
        TotpSetupResponse: {
            /** @description Ten single-use codes */
            backup_codes: string[];
            /** @example otpauth://totp/Acme:ada@example.com?secret=…&issuer=Acme */
            qr_code_url: string;
            /** @description Base32 */
            secret: string;
        };
        UpdateMyMemberDto: {
            /** @example member */
            role: string;
        };
        UpdateMyOrganizationDto: {
            name?: string;
            settings?: components["schemas"]["MyOrganizationSettingsDto"];
            slug?: string;
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
    EmailChangeController_change: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeEmailDto"];
            };
        };
        responses: {
            /** @description Accepted; the body is `{}` */
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
    EmailChangeController_confirm: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailConfirmedResponse"];
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
    ImpersonationController_verify: {
        parameters: {
            query: {
                project_key: unknown;
                token: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always a redirect (400 invalid-token only when the token names no target): session cookies set; or `?error=invalid_token` for a bad, used (the link works once) or expired (60 s) link */
            302: {
                headers: {
                    /** @description The `redirect_url` given to the admin route, else the project's `default_redirect_url` */
                    Location?: string;
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
    InvitationsController_accept: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationAcceptedResponse"];
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
    JwksController_jwks: {
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
                    "application/json": components["schemas"]["JwksResponse"];
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
    MagicLinksController_send: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendMagicLinkDto"];
            };
        };
        responses: {
            /** @description Accepted; the body is `{}` */
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
    MagicLinksController_verify: {
        parameters: {
            query: {
                project_key: unknown;
                token: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always a redirect (400 invalid-token only when the token names no target): session cookies set; or, for a user with MFA, no session and `?mfa_required=true&mfa_token=…`; or `?error=invalid_token` for a bad, used or expired link */
            302: {
                headers: {
                    /** @description The redirect URL chosen at send time, else the project's `default_redirect_url`, with the query parameters above */
                    Location?: string;
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
    AccountsController_me: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["MeResponse"] | components["schemas"]["NoCurrentUserResponse"];
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
    MfaController_remove: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                factor: string;
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
    MfaController_regenerateBackupCodes: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["BackupCodesResponse"];
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
    MfaController_sendSms: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MfaTokenDto"];
            };
        };
        responses: {
            /** @description Accepted; the body is `{}` */
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
    MfaController_setupSms: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SmsSetupDto"];
            };
        };
        responses: {
            /** @description Accepted; the body is `{}` */
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
    MfaController_verifySms: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FactorEnabledResponse"];
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
    MfaController_setupTotp: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["TotpSetupResponse"];
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
    MfaController_verifyTotp: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodeDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FactorEnabledResponse"];
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
    MfaController_verify: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MfaVerifyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"];
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
    OAuthController_authorize: {
        parameters: {
            query: {
                /** @description The publishable key (browser navigations cannot send the header) */
                project_key?: unknown;
                /** @description One of the project's registered redirect URLs */
                redirect_url: unknown;
            };
            header?: never;
            path: {
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider, with the browser-binding cookie set */
            302: {
                headers: {
                    /** @description The provider's authorization URL with `state`, PKCE `code_challenge` and the project's client id */
                    Location?: string;
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
    OAuthController_callbackGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always a redirect once the state is known (a state never issued is 400 invalid-token): session cookies set; or, for a user with MFA, no session and `?mfa_required=true&mfa_token=…`; or `?error=` access_denied, invalid_state, account_exists or provider_error */
            302: {
                headers: {
                    /** @description The redirect URL given at authorize, with the query parameters above */
                    Location?: string;
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
    OAuthController_callbackPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always a redirect once the state is known (a state never issued is 400 invalid-token): session cookies set; or, for a user with MFA, no session and `?mfa_required=true&mfa_token=…`; or `?error=` access_denied, invalid_state, account_exists or provider_error */
            302: {
                headers: {
                    /** @description The redirect URL given at authorize, with the query parameters above */
                    Location?: string;
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
    OidcInteractionsController_describe: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                uid: string;
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
                    "application/json": components["schemas"]["InteractionResponse"];
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
    OidcInteractionsController_abort: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoInteractionFieldsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InteractionRedirectResponse"];
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
    OidcInteractionsController_complete: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoInteractionFieldsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InteractionRedirectResponse"];
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
    OidcInteractionsController_consent: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                uid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConsentDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InteractionRedirectResponse"];
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
    OrganizationsController_mine: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["MyOrganizationsResponse"];
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
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMyOrganizationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MyOrganization"];
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
    OrganizationsController_deleteOrganization: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
    OrganizationsController_updateOrganization: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMyOrganizationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MyOrganization"];
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
    OrganizationsController_invite: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InviteMemberDto"];
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
    OrganizationsController_members: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["MyMemberListResponse"];
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
    OrganizationsController_removeMember: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                id: string;
                user_id: string;
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
    OrganizationsController_updateMember: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path: {
                id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMyMemberDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MyMemberResponse"];
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
    OrganizationsController_setActive: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ActiveOrganizationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenResponse"];
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
    OrganizationsController_suggested: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["OrganizationSuggestionsResponse"];
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
    OrganizationsController_acceptSuggestion: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["MyOrganization"];
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
    PasskeysController_authenticateBegin: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BeginPasskeyAuthenticationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyRequestOptionsResponse"];
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
    PasskeysController_authenticateComplete: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompletePasskeyAuthenticationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"] | components["schemas"]["MfaChallengeResponse"];
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
    PasskeysController_registerBegin: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["PasskeyCreationOptionsResponse"];
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
    PasskeysController_registerComplete: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompletePasskeyRegistrationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyResponse"];
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
    PasskeysController_list: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["PasskeyListResponse"];
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
    PasskeysController_remove: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
    PasswordsController_change: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordDto"];
            };
        };
        responses: {
            /** @description Done; the body is `{}` */
            200: {
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
    PasswordResetController_forgot: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForgotPasswordDto"];
            };
        };
        responses: {
            /** @description Accepted; the body is `{}` */
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
    PasswordResetController_reset: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetPasswordDto"];
            };
        };
        responses: {
            /** @description Done; the body is `{}` */
            200: {
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
    PasswordResetController_validate: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetTokenValidResponse"];
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
    ReauthenticationController_reauthenticate: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReauthenticateDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenResponse"];
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
    ReauthenticationController_sendSms: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the body is `{}` */
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
    SessionsController_refresh: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["AccessTokenResponse"];
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
    SessionsController_list: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
                    "application/json": components["schemas"]["SessionListResponse"];
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
    SessionsController_revoke: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
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
    AccountsController_signIn: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignInDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"] | components["schemas"]["MfaChallengeResponse"];
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
    SessionsController_signOut: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
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
    AccountsController_signUp: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignUpDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedUpResponse"];
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
    SsoController_discover: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SsoDiscoverDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoDiscoverResponse"];
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
    EmailVerificationController_confirm: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailConfirmedResponse"];
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
    EmailVerificationController_send: {
        parameters: {
            query?: never;
            header: {
                "X-Service-Project-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the body is `{}` */
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
    SamlMetadataController_metadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connectionId: string;
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
                    "application/samlmetadata+xml": string;
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
