import { CHECKLIST, EXTENSIONS_SECTION } from './checklist';
import { CHECKS } from './compliance-runner';

describe('the §18 catalogue', () => {
  it('has unique ids, and every check is for an item of it', () => {
    const ids = CHECKLIST.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(CHECKS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('holds every item of both checklists: 52 in v1.2, 41 in v2.0; then the extensions, for both', () => {
    const standard = CHECKLIST.filter((i) => i.section !== EXTENSIONS_SECTION);
    expect(standard.filter((i) => i.standards.includes('1.2')).length).toBe(52);
    expect(standard.filter((i) => i.standards.includes('2.0')).length).toBe(41);
    const extensions = CHECKLIST.filter((i) => i.section === EXTENSIONS_SECTION);
    expect(extensions.map((i) => [i.id, i.standards])).toEqual([['ext.skills', ['1.2', '2.0']]]);
    expect(CHECKLIST.slice(-extensions.length)).toEqual(extensions);
    expect(CHECKLIST.every((i) => i.standards.length > 0 && i.requires.length > 0)).toBe(true);
  });
});
