import { z } from 'zod';
import { requiredText, uuid } from './fields.js';
import { paged, pageQuery } from './pagination.js';

/** What a document is, as the broker files it. */
export const DOCUMENT_CATEGORIES = [
  'policy_document',
  'id',
  'proof_of_payment',
  'claim_photo',
  'correspondence',
  'other',
] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  policy_document: 'Policy document',
  id: 'ID',
  proof_of_payment: 'Proof of payment',
  claim_photo: 'Claim photo',
  correspondence: 'Correspondence',
  other: 'Other',
};

/**
 * The types a document may be, each with the extensions its name may end with (the first is the
 * one a stored name is given). The server checks the bytes, not the name: see documents/sniff.ts.
 */
export const DOCUMENT_TYPES = {
  'application/pdf': ['.pdf'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/heic': ['.heic', '.heif'],
  'image/webp': ['.webp'],
  'text/plain': ['.txt'],
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'message/rfc822': ['.eml'],
} as const satisfies Record<string, readonly string[]>;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

/** Every extension a document may have, for a file picker's `accept`. */
export const DOCUMENT_EXTENSIONS: string[] = Object.values(DOCUMENT_TYPES).flat();

export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
export const DOCUMENT_TYPES_HINT =
  'Coverdesk keeps PDF, PNG, JPEG, HEIC, WebP, TXT, CSV, DOCX, XLSX and EML files of up to 25 MB.';

/** Shown in the page rather than downloaded: a browser displays these itself. */
export const PREVIEWABLE_TYPES: readonly string[] = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
];

/** What a document is attached to: exactly one of them is sent with an upload. */
export const DOCUMENT_OWNERS = ['customer_id', 'policy_id', 'claim_id', 'lead_id'] as const;
export type DocumentOwner = (typeof DOCUMENT_OWNERS)[number];

export const documentCategory = z.enum(DOCUMENT_CATEGORIES, {
  error: `Choose one of: ${DOCUMENT_CATEGORIES.join(', ')}.`,
});

/** Holds an object to naming exactly one of the records a document hangs on, with `message`. */
const namingOneOwner =
  (message: string) => (context: { value: Partial<Record<DocumentOwner, unknown>>; issues: unknown[] }) => {
    const named = DOCUMENT_OWNERS.filter((owner) => context.value[owner] !== undefined);
    if (named.length !== 1) {
      context.issues.push({ code: 'custom', input: context.value, path: ['customer_id'], message });
    }
  };

/** The text fields of `POST /api/documents/` (multipart, with the file in `file`). */
export const documentUploadFields = z
  .object({
    customer_id: uuid.optional(),
    policy_id: uuid.optional(),
    claim_id: uuid.optional(),
    lead_id: uuid.optional(),
    category: documentCategory.default('other'),
  })
  .check(namingOneOwner('Attach the document to one customer, policy, claim or lead.'));
export type DocumentUploadFields = z.infer<typeof documentUploadFields>;

export const document = z.object({
  id: uuid,
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  category: documentCategory,
  /** The customer it belongs to: its own, or its policy's, claim's or converted lead's. */
  customer_id: uuid.nullable(),
  policy_id: uuid.nullable(),
  claim_id: uuid.nullable(),
  lead_id: uuid.nullable(),
  uploaded_by: uuid.nullable(),
  /** The uploader's name as it was, for the list. */
  uploaded_by_name: z.string(),
  created_at: z.string(),
});
export type Document = z.infer<typeof document>;

export const documentPage = paged(document);

/** `GET /api/documents/?customer_id=` (or one of the others), newest first. */
export const documentListQuery = pageQuery
  .omit({ search: true })
  .extend({
    customer_id: uuid.optional(),
    policy_id: uuid.optional(),
    claim_id: uuid.optional(),
    lead_id: uuid.optional(),
  })
  .check(namingOneOwner('Name one customer, policy, claim or lead.'));
export type DocumentListQuery = z.infer<typeof documentListQuery>;

/** `PATCH /api/documents/{id}/`: a new name, a new category, or both. */
export const documentPatchBody = z
  .object({
    file_name: requiredText(150, 'Give the document a name.').optional(),
    category: documentCategory.optional(),
  })
  .strict();
export type DocumentPatchBody = z.infer<typeof documentPatchBody>;
