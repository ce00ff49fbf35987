/** Output schema of get_asset: one device of the inventory. */
export const ASSET_SCHEMA = {
  type: 'object',
  properties: {
    tag: { type: 'string', description: 'Asset tag.' },
    kind: { type: 'string', enum: ['laptop', 'desktop', 'phone', 'monitor', 'printer'] },
    model: { type: 'string' },
    assignedTo: { type: 'string', description: "The holder's handle, or stock when nobody has it." },
    location: { type: 'string' },
    warrantyUntil: { type: 'string', format: 'date', description: 'Last day of the warranty.' },
    underWarranty: { type: 'boolean', description: 'True while the warranty runs (today included).' },
  },
  required: ['tag', 'kind', 'model', 'assignedTo', 'location', 'warrantyUntil', 'underWarranty'],
};
