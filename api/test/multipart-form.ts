import { randomBytes } from 'node:crypto';

export interface FilePart {
  /** The form field the file is sent as. */
  field?: string | undefined;
  name: string;
  /** application/octet-stream unless said. */
  type?: string;
  content: Buffer;
}

/** A multipart/form-data body as a browser sends it: text fields, then the file, for `app.inject`. */
export function multipartForm(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----coverdesk${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'attachment'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
