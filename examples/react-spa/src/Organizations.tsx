import { useId, useState, type FormEvent } from 'react';
import { OrganizationSwitcher, useOrganization, useOrganizationList } from '@gatehouse/react';
import { FormError } from './problems';

/**
 * The user's organizations: the switcher (the active one goes into the access token's `org`
 * claim, kept across refreshes) and a form to create one (the project must allow it:
 * `settings.organizations.allow_user_create`).
 */
export function Organizations() {
  const id = useId();
  const { organizations, loading, error, refresh, create } = useOrganizationList();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [createError, setCreateError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setCreateError(null);
    setNotice('');
    create({ name: name.trim() })
      .then((org) => {
        setName('');
        setNotice(`${org.name} created: you are its admin.`);
      })
      .catch(setCreateError)
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Organizations</h2>
      {!loading && !error && organizations.length === 0 && (
        <p>You belong to no organization yet.</p>
      )}
      <OrganizationSwitcher className="switcher" label="Active organization" />
      <button type="button" className="link" disabled={loading} onClick={() => void refresh()}>
        Reload organizations
      </button>
      <form onSubmit={submit} aria-busy={busy}>
        <label htmlFor={`${id}-name`}>New organization name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
          required
        />
        <FormError error={createError} />
        <button type="submit" disabled={busy}>
          Create organization
        </button>
      </form>
      <p role="status" className="notice">
        {notice}
      </p>
    </section>
  );
}

/**
 * A page of the application that only some members may use: "View invoices" shows when the
 * active organization's role grants `invoices:read` (from the token, no request). This is the
 * UI's check; the invoices API itself would check the token (`@gatehouse/server`'s
 * `requirePermission('invoices:read')`).
 */
export function Invoices() {
  const id = useId();
  const { organization, has } = useOrganization();
  const { organizations } = useOrganizationList();
  const [opened, setOpened] = useState(false);
  const name = organizations.find((o) => o.id === organization?.id)?.name ?? organization?.slug;

  return (
    <section aria-labelledby={`${id}-title`} className="card">
      <h2 id={`${id}-title`}>Invoices</h2>
      {!organization ? (
        <p>Invoices belong to an organization: choose one above.</p>
      ) : has({ permission: 'invoices:read' }) ? (
        <>
          <p>
            Invoices of <strong>{name}</strong>.
          </p>
          <button type="button" onClick={() => setOpened(true)}>
            View invoices
          </button>
          <p role="status" className="notice">
            {opened ? `${name} has no invoices yet.` : ''}
          </p>
        </>
      ) : (
        <p>
          Your role in <strong>{name}</strong> ({organization.role}) does not grant{' '}
          <code>invoices:read</code>, so its invoices are not shown. An administrator can add that
          permission to the role.
        </p>
      )}
    </section>
  );
}
