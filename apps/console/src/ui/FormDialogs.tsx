import { Modal } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';

/** What a dialog's form is handed: its state and its two ways out. */
export interface DialogForm<V> {
  busy: boolean;
  error: unknown;
  onSubmit: (values: V) => void;
  onCancel: () => void;
}

/**
 * The create and edit dialogs of a list (roles, API resources, OAuth clients): which one is open,
 * the two requests, and closing on success. `create` and `update` send the request; `onSaved`
 * refreshes what the change touched. With `keepCreated`, a successful create keeps its dialog open
 * and holds the answer in `created` (a secret shown once) until the dialog is closed.
 */
export function useFormDialogs<Item, V, Created = unknown>({
  create,
  update,
  onSaved,
  keepCreated = false,
}: {
  create: (values: V) => Promise<Created>;
  update: (item: Item, values: V) => Promise<unknown>;
  onSaved: () => unknown;
  keepCreated?: boolean;
}) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [editing, setEditing] = useState<Item | null>(null);
  const creation = useMutation({
    mutationFn: create,
    onSuccess: (answer) => {
      if (keepCreated) setCreated(answer);
      else setCreating(false);
      void onSaved();
    },
  });
  const edit = useMutation({
    mutationFn: ({ item, values }: { item: Item; values: V }) => update(item, values),
    onSuccess: () => {
      setEditing(null);
      void onSaved();
    },
  });
  const closeCreate = () => {
    setCreating(false);
    setCreated(null);
    creation.reset();
  };
  const closeEdit = () => {
    setEditing(null);
    edit.reset();
  };
  return {
    creating,
    created,
    editing,
    openCreate: () => setCreating(true),
    openEdit: (item: Item) => setEditing(item),
    closeCreate,
    createForm: {
      busy: creation.isPending,
      error: creation.error,
      onSubmit: (values: V) => creation.mutate(values),
      onCancel: closeCreate,
    } satisfies DialogForm<V>,
    editForm: (item: Item): DialogForm<V> => ({
      busy: edit.isPending,
      error: edit.error,
      onSubmit: (values) => edit.mutate({ item, values }),
      onCancel: closeEdit,
    }),
    closeEdit,
  };
}

/**
 * The two dialogs of useFormDialogs: "New …" with `renderCreate`, and "Edit …" with `renderEdit`
 * for the item being edited (its form is keyed by `itemKey`, so editing another item starts from
 * that item's values).
 */
export function FormDialogs<Item, V, Created>({
  dialogs,
  createTitle,
  editTitle,
  itemKey,
  renderCreate,
  renderEdit,
}: {
  dialogs: ReturnType<typeof useFormDialogs<Item, V, Created>>;
  createTitle: string;
  editTitle: (item: Item | null) => string;
  itemKey: (item: Item) => string;
  renderCreate: (form: DialogForm<V>, created: Created | null) => ReactNode;
  renderEdit: (item: Item, form: DialogForm<V>) => ReactNode;
}) {
  const { editing } = dialogs;
  return (
    <>
      <Modal opened={dialogs.creating} onClose={dialogs.closeCreate} title={createTitle} size="lg">
        {renderCreate(dialogs.createForm, dialogs.created)}
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={dialogs.closeEdit}
        title={editTitle(editing)}
        size="lg"
      >
        {editing !== null && (
          <Fragment key={itemKey(editing)}>
            {renderEdit(editing, dialogs.editForm(editing))}
          </Fragment>
        )}
      </Modal>
    </>
  );
}
