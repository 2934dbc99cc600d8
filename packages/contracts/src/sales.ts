// Talk to Sales (the landing page's contact form): POST /api/sales-inquiries, public; the operator's
// administrators read the messages at GET /api/system/sales-inquiries.
import { z } from 'zod';

export const salesInquiryMessages = {
  nameRequired: 'Name is required',
  invalidEmail: 'Enter a valid work email',
  companyRequired: 'Company is required',
  messageRequired: 'Message is required',
  /** What the form says once the message is sent. */
  sent: (email: string) => `Thanks — we will reply to ${email} within one business day.`,
  operatorOnly: 'Only the operator’s administrators can read sales inquiries',
} as const;

export const SALES_MESSAGE_MAX_LENGTH = 5000;

export const salesInquirySchema = z.object({
  name: z.string().trim().min(1, { message: salesInquiryMessages.nameRequired }).max(100),
  email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ message: salesInquiryMessages.invalidEmail })),
  company: z.string().trim().min(1, { message: salesInquiryMessages.companyRequired }).max(200),
  message: z
    .string()
    .trim()
    .min(1, { message: salesInquiryMessages.messageRequired })
    .max(SALES_MESSAGE_MAX_LENGTH, {
      message: `Message must be at most ${SALES_MESSAGE_MAX_LENGTH} characters`,
    }),
});
export type SalesInquiryInput = z.input<typeof salesInquirySchema>;
export type SalesInquiryData = z.output<typeof salesInquirySchema>;

/** 202: the message is stored; `message` is what the form shows. */
export const salesInquiryAcceptedSchema = z.object({ message: z.string() });

export const storedSalesInquirySchema = salesInquirySchema.extend({
  id: z.string(),
  createdAt: z.string(),
});
export type SalesInquiry = z.infer<typeof storedSalesInquirySchema>;

/** GET /api/system/sales-inquiries: newest first. */
export const salesInquiriesResponseSchema = z.object({ inquiries: z.array(storedSalesInquirySchema) });
export type SalesInquiriesResponse = z.infer<typeof salesInquiriesResponseSchema>;
