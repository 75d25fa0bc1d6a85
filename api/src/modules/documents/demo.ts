import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { addDays, type DocumentCategory, type DocumentType } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { asConnectingRole } from '../../db/tenant.js';
import { agencyUsers, tenants } from '../tenants/tables.js';
import { keepDocument } from './keep.js';
import type { Attachment } from './queries.js';
import type { FileStore } from './storage.js';

// The demo agency's documents: the paperwork of one motor claim, from the policy's schedule to the
// insurer's email, so a visitor opening the claim, its policy or its customer finds files to preview
// and download. The files are made here, small. The photo and the call note are the same bytes every
// day, so a daily reset keeps them as they are; the schedule and the email name the day's policy and
// claim, and yesterday's are released with the documents the reset deleted.

/** The claim the files are about, its policy, customer and insurer, as the reset wrote them. */
type DemoClaim = {
  claim_id: string;
  claim_number: string;
  insurer_reference: string;
  incident_date: string;
  reported_date: string;
  location: string;
  policy_id: string;
  policy_number: string;
  start_date: string;
  end_date: string;
  total_premium: string;
  insured_item: string;
  sum_insured: string | null;
  deductible: string | null;
  customer_id: string;
  customer_name: string;
  insurer_name: string;
  insurer_domain: string;
  type_name: string;
};

const longDate = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

/** A string of a PDF's text: Latin-1, its delimiters escaped. */
const pdfText = (text: string) => text.replace(/[^\x20-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A one-page PDF of the lines given, as a PDF reader expects it: catalog, page, the two Helvetica
 * faces every reader has, the text, and a cross-reference table with each object's offset.
 */
function onePagePdf(
  title: string,
  lines: (readonly [label: string, value: string])[],
  footer: string,
): Buffer {
  const text = [
    `BT /F2 20 Tf 56 770 Td (${pdfText(title)}) Tj ET`,
    ...lines.flatMap(([label, value], index) => {
      const y = 720 - index * 24;
      return [
        `BT /F2 11 Tf 56 ${y} Td (${pdfText(label)}) Tj ET`,
        `BT /F1 11 Tf 200 ${y} Td (${pdfText(value)}) Tj ET`,
      ];
    }),
    `BT /F1 9 Tf 56 60 Td (${pdfText(footer)}) Tj ET`,
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const at = Buffer.byteLength(pdf, 'latin1');
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A PNG of `width` by `height` RGB pixels, `pixel(x, y)` giving each. */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]) {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter, none.
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, RGB, the standard compression, filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The rear of a red car against a wall, its bumper pushed in on one side. */
const DENTED_BUMPER = png(240, 160, (x, y) => {
  const inside = (cx: number, cy: number, rx: number, ry: number) =>
    ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  if (inside(70, 138, 18, 18) || inside(170, 138, 18, 18)) return [28, 28, 30]; // tyres
  if (x >= 40 && x < 200 && y >= 110 && y < 130) {
    // The bumper, darker where it is pushed in.
    return inside(160, 120, 26, 12) ? [96, 18, 22] : [150, 30, 34];
  }
  if (x >= 70 && x < 170 && y >= 46 && y < 70) return [120, 150, 170]; // rear window
  if (x >= 40 && x < 200 && y >= 40 && y < 110) return [190, 36, 40]; // body
  if (y >= 128) return [110, 110, 112]; // the car park's asphalt
  return [214 - (y >> 2), 208 - (y >> 2), 196 - (y >> 2)]; // the wall, lit from above
});

const CALL_NOTE = Buffer.from(
  [
    'Call with the customer about the accident',
    '',
    'Rear-ended at a traffic light, nobody hurt. The other driver admitted fault at the scene and',
    'gave their insurer and registration; the police were not called.',
    '',
    '- Customer sends the photos of the bumper and the other driver’s details today.',
    '- The car is drivable; the boot does not lock. Told them to keep the repair estimate.',
    '- Asked the insurer for an assessor; to call the customer back once the date is set.',
    '',
  ].join('\n'),
);

/** An email as a mail program saves it (CRLF lines), from the insurer's claims team to the broker. */
function insurerEmail(claim: DemoClaim, brokerEmail: string, sentAt: Date): Buffer {
  const reference = claim.insurer_reference || claim.claim_number;
  return Buffer.from(
    [
      `From: ${claim.insurer_name} Claims <claims@${claim.insurer_domain}>`,
      `To: ${brokerEmail}`,
      `Subject: Claim ${reference}, policy ${claim.policy_number}: assessor appointed`,
      `Date: ${sentAt.toUTCString().replace('GMT', '+0000')}`,
      `Message-ID: <${reference.toLowerCase()}.${claim.reported_date}@${claim.insurer_domain}>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Hello,',
      '',
      `Thank you for reporting the accident of ${longDate(claim.incident_date)} on behalf of ${claim.customer_name}`,
      `(policy ${claim.policy_number}, ${claim.insured_item}). Our reference is ${reference}.`,
      '',
      'An assessor will contact your client within two working days to inspect the vehicle. Please',
      'send us the repair estimate and the photographs when you have them.',
      '',
      `${claim.insurer_name} Claims`,
      '',
    ].join('\r\n'),
  );
}

interface DemoFile {
  name: string;
  type: DocumentType;
  category: DocumentCategory;
  bytes: Buffer;
  on: Partial<Attachment>;
  at: Date;
}

/**
 * Four documents of the demo's first motor accident claim (any claim on a day without one): its
 * policy's schedule, a photo on the claim, the broker's call note and the insurer's email on the
 * customer, each uploaded by the owner when it would have been. Runs after the claims are seeded, in
 * the reset's transaction; the bytes are stored through `keepDocument`, before the rows name them.
 */
export async function seedDemoDocuments(
  tx: Transaction,
  store: FileStore,
  { tenantId, moment }: { tenantId: string; moment: (isoDay: string) => Date },
): Promise<void> {
  const { rows } = await tx.execute<DemoClaim>(sql`
    select cl.id as claim_id, cl.claim_number, cl.insurer_reference, cl.incident_date::text,
      cl.reported_date::text, cl.location, p.id as policy_id, p.policy_number, p.start_date::text,
      p.end_date::text, p.total_premium::text, p.insured_item, p.sum_insured::text, p.deductible::text,
      cu.id as customer_id, cu.display_name as customer_name, co.name as insurer_name,
      split_part(co.email, '@', 2) as insurer_domain, pt.name as type_name
    from claims cl
    join policies p on p.tenant_id = cl.tenant_id and p.id = cl.policy_id
    join customers cu on cu.tenant_id = p.tenant_id and cu.id = p.customer_id
    join companies co on co.tenant_id = p.tenant_id and co.id = p.company_id
    join policy_types pt on pt.tenant_id = p.tenant_id and pt.id = p.policy_type_id
    where cl.tenant_id = ${tenantId}
    order by (cl.claim_type = 'accident') desc, (cl.insurer_reference <> '') desc, cl.claim_number
    limit 1`);
  const claim = rows[0];
  const [owner] = await tx
    .select({
      id: agencyUsers.id,
      firstName: agencyUsers.firstName,
      lastName: agencyUsers.lastName,
      email: agencyUsers.email,
    })
    .from(agencyUsers)
    .where(eq(agencyUsers.role, 'owner'))
    .limit(1);
  if (!claim || !owner) return;
  // The agency's name and currency are platform facts.
  const [agency] = await asConnectingRole(tx, () =>
    tx
      .select({ name: tenants.name, currency: tenants.currency })
      .from(tenants)
      .where(eq(tenants.id, tenantId)),
  );
  const money = (amount: string) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: agency?.currency ?? 'USD' }).format(
      Number(amount),
    );
  const schedule = onePagePdf(
    `${claim.insurer_name}: policy schedule`,
    [
      ['Policy number', claim.policy_number],
      ['Policyholder', claim.customer_name],
      ['Cover', claim.type_name],
      ['Insured', claim.insured_item],
      ['Period', `${longDate(claim.start_date)} to ${longDate(claim.end_date)}`],
      ...(claim.sum_insured === null ? [] : [['Sum insured', money(claim.sum_insured)] as const]),
      ...(claim.deductible === null ? [] : [['Deductible', money(claim.deductible)] as const]),
      ['Premium', money(claim.total_premium)],
      ['Broker', agency?.name ?? ''],
    ],
    `Issued by ${claim.insurer_name} on ${longDate(claim.start_date)}. This schedule forms part of the policy wording.`,
  );
  const emailedAt = moment(addDays(claim.reported_date, 1));
  const files: DemoFile[] = [
    {
      name: `Schedule ${claim.policy_number}.pdf`,
      type: 'application/pdf',
      category: 'policy_document',
      bytes: schedule,
      on: { policyId: claim.policy_id },
      at: moment(claim.start_date),
    },
    {
      name: 'Rear bumper.png',
      type: 'image/png',
      category: 'claim_photo',
      bytes: DENTED_BUMPER,
      on: { claimId: claim.claim_id },
      at: moment(claim.reported_date),
    },
    {
      name: 'Call about the accident.txt',
      type: 'text/plain',
      category: 'correspondence',
      bytes: CALL_NOTE,
      on: {},
      at: moment(claim.reported_date),
    },
    {
      name: `${claim.insurer_name} - assessor appointed.eml`,
      type: 'message/rfc822',
      category: 'correspondence',
      bytes: insurerEmail(claim, owner.email, emailedAt),
      on: {},
      at: emailedAt,
    },
  ];

  await mkdir(store.incomingDir, { recursive: true });
  for (const file of files) {
    const source = path.join(store.incomingDir, randomUUID());
    await writeFile(source, file.bytes);
    try {
      await keepDocument(
        tx,
        store,
        tenantId,
        {
          path: source,
          size: file.bytes.length,
          sha256: createHash('sha256').update(file.bytes).digest('hex'),
        },
        {
          attachment: {
            customerId: claim.customer_id,
            policyId: null,
            claimId: null,
            leadId: null,
            ...file.on,
          },
          fileName: file.name,
          contentType: file.type,
          category: file.category,
          uploadedBy: { id: owner.id, name: `${owner.firstName} ${owner.lastName}` },
          createdAt: file.at,
        },
      );
    } finally {
      await rm(source, { force: true });
    }
  }
}
