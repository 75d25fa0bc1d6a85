import {
  DOCUMENT_CATEGORY_LABELS,
  type Document,
  type DocumentCategory,
  PREVIEWABLE_TYPES,
} from '@coverdesk/contract';
import {
  ActionIcon,
  Anchor,
  Card,
  Group,
  Menu,
  Pagination,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import {
  DOCUMENTS_PAGE_SIZE,
  type DocumentsOf,
  uploadDocument,
  useDocuments,
  useMarkDocumentsChanged,
} from '../api.js';
import { categoryByType } from './category.js';
import {
  CATEGORY_CHOICES,
  DeleteDialog,
  downloadDocument,
  EditDialog,
  PreviewDialog,
} from './document-dialogs.js';
import { DropZone } from './drop-zone.js';
import { formatSize } from './size.js';
import { type UploadItem, UploadList } from './upload-list.js';

type Dialog = { kind: 'preview' | 'edit' | 'delete'; document: Document } | null;

/** The choice that files each new document by its type (`categoryByType`). */
const BY_TYPE = 'by_type';
const NEW_FILE_CHOICES = [{ value: BY_TYPE, label: 'By file type' }, ...CATEGORY_CHOICES];

let uploadCount = 0;

/**
 * The documents kept on a customer, policy, claim or lead: dropped or picked files upload side by
 * side with a bar each, the list newest first, a preview of images and PDFs, download, rename and
 * delete. A viewer sees and downloads; the rest takes the `work` role.
 */
export function DocumentsPanel({ of, what }: { of: DocumentsOf; what: string }) {
  const owner = (Object.keys(of)[0] ?? 'customer_id') as keyof DocumentsOf;
  const canWork = useCan('work');
  const phone = useDevice() === 'mobile';
  const [page, setPage] = useState(1);
  const documents = useDocuments(of, page);
  const markChanged = useMarkDocumentsChanged();
  const [category, setCategory] = useState<DocumentCategory | typeof BY_TYPE>(BY_TYPE);
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const update = (key: string, change: Partial<UploadItem>) =>
    setUploads((items) => items.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const upload = (files: File[]) => {
    const started = files.map((file) => ({
      file,
      item: {
        key: `upload-${++uploadCount}`,
        name: file.name,
        size: file.size,
        progress: 0,
        state: 'uploading' as const,
      },
    }));
    setUploads((items) => [
      ...items.filter((item) => item.state !== 'done'),
      ...started.map(({ item }) => item),
    ]);
    void Promise.all(
      started.map(({ file, item }) =>
        uploadDocument(
          of,
          file,
          category === BY_TYPE ? categoryByType(owner, file.name) : category,
          (progress) => update(item.key, { progress }),
        )
          .then(() => update(item.key, { progress: 1, state: 'done' }))
          .catch((error: unknown) => update(item.key, { state: 'failed', error: errorText(error) })),
      ),
    ).then(() => {
      setPage(1);
      void markChanged();
      // The finished bars go a moment later; refused files stay until dismissed.
      setTimeout(() => setUploads((items) => items.filter((item) => item.state !== 'done')), 4000);
    });
  };

  const count = documents.data?.count ?? 0;
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={3} fz="h4">
            Documents
          </Title>
          {canWork && (
            <Select
              label="Category for new files"
              data={NEW_FILE_CHOICES}
              value={category}
              allowDeselect={false}
              onChange={(value) => value && setCategory(value as DocumentCategory | typeof BY_TYPE)}
              w={phone ? '100%' : 220}
              size="sm"
            />
          )}
        </Group>
        {canWork && <DropZone onFiles={upload} compact={phone} />}
        <UploadList
          items={uploads}
          onDismiss={(key) => setUploads((items) => items.filter((item) => item.key !== key))}
        />
        {documents.isPending ? (
          <Skeleton h={80} />
        ) : documents.isError ? (
          <ErrorState error={documents.error} onRetry={() => void documents.refetch()} />
        ) : count === 0 ? (
          <Text c="dimmed" fz="sm">
            No documents on this {what} yet.{' '}
            {canWork ? 'Drop a policy schedule, an ID or photos above to keep them here.' : ''}
          </Text>
        ) : phone ? (
          <Stack gap="xs">
            {documents.data.results.map((document) => (
              <Card key={document.id} withBorder padding="sm" data-testid="document-row">
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <DocumentName
                      document={document}
                      onPreview={() => setDialog({ kind: 'preview', document })}
                    />
                    <Text fz="xs" c="dimmed">
                      {DOCUMENT_CATEGORY_LABELS[document.category]} · {formatSize(document.size)} ·{' '}
                      {formatDate(document.created_at)}
                    </Text>
                  </Stack>
                  <DocumentMenu document={document} canWork={canWork} open={setDialog} />
                </Group>
              </Card>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Category</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Size</Table.Th>
                  <Table.Th>Uploaded by</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {documents.data.results.map((document) => (
                  <Table.Tr key={document.id} data-testid="document-row">
                    <Table.Td maw={320}>
                      <DocumentName
                        document={document}
                        onPreview={() => setDialog({ kind: 'preview', document })}
                      />
                    </Table.Td>
                    <Table.Td>{DOCUMENT_CATEGORY_LABELS[document.category]}</Table.Td>
                    <Table.Td style={{ ...TABULAR_FIGURES, textAlign: 'right', whiteSpace: 'nowrap' }}>
                      {formatSize(document.size)}
                    </Table.Td>
                    <Table.Td>{document.uploaded_by_name || '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(document.created_at)}</Table.Td>
                    <Table.Td>
                      <DocumentMenu document={document} canWork={canWork} open={setDialog} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {count > DOCUMENTS_PAGE_SIZE && (
          <Pagination
            total={Math.ceil(count / DOCUMENTS_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        )}
      </Stack>
      {dialog?.kind === 'preview' && (
        <PreviewDialog document={dialog.document} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'edit' && <EditDialog document={dialog.document} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog document={dialog.document} onClose={() => setDialog(null)} />
      )}
    </Card>
  );
}

/** The name opens a preview of what the browser can show, and downloads the rest. */
function DocumentName({ document, onPreview }: { document: Document; onPreview(): void }) {
  const previews = PREVIEWABLE_TYPES.includes(document.content_type);
  return (
    <Anchor
      component="button"
      type="button"
      fz="sm"
      fw={600}
      ta="left"
      style={{ overflowWrap: 'anywhere' }}
      onClick={() => (previews ? onPreview() : void downloadDocument(document))}
    >
      {document.file_name}
    </Anchor>
  );
}

function DocumentMenu({
  document,
  canWork,
  open,
}: {
  document: Document;
  canWork: boolean;
  open(dialog: Dialog): void;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size={44} aria-label={`Actions for ${document.file_name}`}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {PREVIEWABLE_TYPES.includes(document.content_type) && (
          <Menu.Item onClick={() => open({ kind: 'preview', document })}>Preview</Menu.Item>
        )}
        <Menu.Item onClick={() => void downloadDocument(document)}>Download</Menu.Item>
        {canWork && (
          <Menu.Item onClick={() => open({ kind: 'edit', document })}>Rename or recategorise</Menu.Item>
        )}
        {canWork && (
          <Menu.Item color="red" onClick={() => open({ kind: 'delete', document })}>
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
