/** One device of the asset inventory, as the inventory service answers it. */
export interface Asset {
  tag: string;
  kind: 'laptop' | 'desktop' | 'phone' | 'monitor' | 'printer';
  model: string;
  /** Who has it (a person's handle), or `stock` when nobody does. */
  assignedTo: string;
  location: string;
  /** The last day of its warranty (YYYY-MM-DD). */
  warrantyUntil: string;
}

/** The inventory's devices: the example's data, served by the inventory service (embedded or its own process). */
export const ASSETS: readonly Asset[] = [
  {
    tag: 'LT-1001',
    kind: 'laptop',
    model: 'ThinkPad T14 Gen 5',
    assignedTo: 'alice',
    location: 'Paris',
    warrantyUntil: '2027-03-31',
  },
  {
    tag: 'LT-1002',
    kind: 'laptop',
    model: 'MacBook Pro 14',
    assignedTo: 'bob',
    location: 'Lyon',
    warrantyUntil: '2026-01-15',
  },
  {
    tag: 'DT-2001',
    kind: 'desktop',
    model: 'OptiPlex 7010',
    assignedTo: 'stock',
    location: 'Paris',
    warrantyUntil: '2028-06-30',
  },
  {
    tag: 'PH-3001',
    kind: 'phone',
    model: 'Pixel 8',
    assignedTo: 'carol',
    location: 'Remote',
    warrantyUntil: '2026-11-30',
  },
  {
    tag: 'MN-4001',
    kind: 'monitor',
    model: 'U2723QE',
    assignedTo: 'alice',
    location: 'Paris',
    warrantyUntil: '2029-02-28',
  },
  {
    tag: 'PR-5001',
    kind: 'printer',
    model: 'LaserJet M507',
    assignedTo: 'stock',
    location: 'Lyon, 2nd floor',
    warrantyUntil: '2025-12-31',
  },
];
