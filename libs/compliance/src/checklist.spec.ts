import { CHECKLIST } from './checklist';
import { CHECKS } from './compliance-runner';

describe('the §18 catalogue', () => {
  it('has unique ids, and every check is for an item of it', () => {
    const ids = CHECKLIST.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(CHECKS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('holds every item of both checklists: 52 in v1.2, 41 in v2.0', () => {
    expect(CHECKLIST.filter((i) => i.standards.includes('1.2')).length).toBe(52);
    expect(CHECKLIST.filter((i) => i.standards.includes('2.0')).length).toBe(41);
    expect(CHECKLIST.every((i) => i.standards.length > 0 && i.requires.length > 0)).toBe(true);
  });
});
