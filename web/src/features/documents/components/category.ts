import { DOCUMENT_TYPES, type DocumentCategory } from '@coverdesk/contract';
import type { DocumentsOf } from '../api.js';

/** The extensions of the image types a document may be. */
const IMAGE_EXTENSIONS = Object.entries(DOCUMENT_TYPES)
  .filter(([type]) => type.startsWith('image/'))
  .flatMap(([, extensions]) => extensions as readonly string[]);

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.')).toLowerCase();

/**
 * The category a file is filed under on a page of `owner`'s documents when the broker chose none: by
 * its type. On a claim a photo is a claim photo, an email correspondence, and anything else (a
 * letter, a report, a spreadsheet) other; a policy's files are its documents; the rest other.
 */
export function categoryByType(owner: keyof DocumentsOf, fileName: string): DocumentCategory {
  const extension = extensionOf(fileName);
  if (owner === 'policy_id') return 'policy_document';
  if (owner !== 'claim_id') return 'other';
  if (IMAGE_EXTENSIONS.includes(extension)) return 'claim_photo';
  return extension === '.eml' ? 'correspondence' : 'other';
}
