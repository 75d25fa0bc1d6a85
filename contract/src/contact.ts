import { z } from 'zod';
import { emailField } from './auth.js';
import { boundedText, REQUIRED, text } from './fields.js';

const between = (min: number, max: number, tooShort = 'This field may not be blank.') =>
  text({ error: REQUIRED })
    .trim()
    .min(min, tooShort)
    .max(max, `Ensure this field has no more than ${max} characters.`);

/** A message from the public contact form; admins read them in the admin portal. */
export const contactMessageBody = z.object({
  name: between(1, 150),
  email: emailField,
  company: boundedText(200).optional(),
  subject: between(1, 200),
  message: between(10, 5000, 'Please write at least 10 characters.'),
});
export type ContactMessageBody = z.infer<typeof contactMessageBody>;
