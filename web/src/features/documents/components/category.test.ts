import { describe, expect, it } from 'vitest';
import { categoryByType } from './category.js';

describe('the category a new document is filed under', () => {
  it("files a claim's photos as claim photos and its letters and reports as what they are", () => {
    expect(categoryByType('claim_id', 'Front bumper.JPG')).toBe('claim_photo');
    expect(categoryByType('claim_id', 'scene.heic')).toBe('claim_photo');
    expect(categoryByType('claim_id', 'Adjuster report.docx')).toBe('other');
    expect(categoryByType('claim_id', 'estimate.pdf')).toBe('other');
    expect(categoryByType('claim_id', 'From the insurer.eml')).toBe('correspondence');
  });

  it("files a policy's documents as policy documents, and the rest as other", () => {
    expect(categoryByType('policy_id', 'schedule.pdf')).toBe('policy_document');
    expect(categoryByType('customer_id', 'passport.jpg')).toBe('other');
  });
});
