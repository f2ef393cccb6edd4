export const legacyInvoice = true;
