import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  type Document,
  type DocumentCategory,
} from '@coverdesk/contract';
import { Button, Center, Group, Image, Loader, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { saveFile } from '../../../lib/save-file.js';
import { fetchDocument, useChangeDocument, useDeleteDocument } from '../api.js';

export const CATEGORY_CHOICES = DOCUMENT_CATEGORIES.map((value) => ({
  value,
  label: DOCUMENT_CATEGORY_LABELS[value],
}));

/** Fetches the bytes with the token and hands them to the browser's downloads. */
export async function downloadDocument(document: Document): Promise<void> {
  try {
    const { blob } = await fetchDocument(document);
    saveFile(blob, document.file_name);
  } catch (error) {
    notifications.show({ color: 'red', title: 'Could not download', message: errorText(error) });
  }
}

/** The bytes as an object URL while the preview is open, let go when it closes. */
function usePreviewUrl(document: Document) {
  const bytes = useQuery({
    queryKey: ['document-preview', document.id],
    queryFn: async () => (await fetchDocument(document)).blob,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!bytes.data) return;
    const made = URL.createObjectURL(bytes.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes.data]);
  return { bytes, url };
}

/** An image or a PDF shown in the page, fetched with the token: no file has a public address. */
export function PreviewDialog({ document, onClose }: { document: Document; onClose(): void }) {
  const { bytes, url } = usePreviewUrl(document);
  const isPdf = document.content_type === 'application/pdf';
  return (
    <Modal
      opened
      onClose={onClose}
      title={document.file_name}
      size="xl"
      fullScreen={window.innerWidth <= 768}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        {bytes.isError ? (
          <ErrorState error={bytes.error} onRetry={() => void bytes.refetch()} />
        ) : !url ? (
          <Center h={300}>
            <Loader aria-label="Loading the preview" />
          </Center>
        ) : isPdf ? (
          <iframe
            src={url}
            title={`Preview of ${document.file_name}`}
            style={{ width: '100%', height: '70vh', border: 0 }}
            data-testid="document-preview"
          />
        ) : (
          <Image
            src={url}
            alt={`Preview of ${document.file_name}`}
            fit="contain"
            mah="70vh"
            data-testid="document-preview"
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void downloadDocument(document)}>
            Download
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A new name or category for a document. */
export function EditDialog({ document, onClose }: { document: Document; onClose(): void }) {
  const [name, setName] = useState(document.file_name);
  const [category, setCategory] = useState<DocumentCategory>(document.category);
  const change = useChangeDocument(document.id);
  const save = () =>
    change.mutate(
      { file_name: name, category },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'green', message: `Saved ${saved.file_name}.` });
          onClose();
        },
      },
    );
  return (
    <Modal
      opened
      onClose={onClose}
      title="Rename document"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Select
            label="Category"
            data={CATEGORY_CHOICES}
            value={category}
            allowDeselect={false}
            onChange={(value) => value && setCategory(value as DocumentCategory)}
          />
          <FormError message={change.isError ? errorText(change.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={change.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Asks before deleting, naming the file. */
export function DeleteDialog({ document, onClose }: { document: Document; onClose(): void }) {
  const remove = useDeleteDocument();
  return (
    <ConfirmDialog
      opened
      title="Delete document"
      confirmLabel="Delete"
      busy={remove.isPending}
      error={remove.isError ? errorText(remove.error) : null}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(document.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: `Deleted ${document.file_name}.` });
            onClose();
          },
        })
      }
    >
      Delete {document.file_name}? It is removed for everyone in the agency.
    </ConfirmDialog>
  );
}
