import { z } from 'zod';
import { emailField } from './auth.js';

const text = (min: number, max: number, tooShort = 'This field may not be blank.') =>
  z
    .string({ error: 'This field is required.' })
    .trim()
    .min(min, tooShort)
    .max(max, `Ensure this field has no more than ${max} characters.`);

/** A message from the public contact form; admins read them in the admin portal. */
export const contactMessageBody = z.object({
  name: text(1, 150),
  email: emailField,
  company: z.string().trim().max(200, 'Ensure this field has no more than 200 characters.').optional(),
  subject: text(1, 200),
  message: text(10, 5000, 'Please write at least 10 characters.'),
});
export type ContactMessageBody = z.infer<typeof contactMessageBody>;
