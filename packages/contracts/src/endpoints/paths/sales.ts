// The paths of `endpoints.sales` (index.ts says why they are apart from the descriptors).
export const submit = '/api/sales-inquiries';
export const list = '/api/system/sales-inquiries';
