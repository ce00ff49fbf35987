import { readFrontmatter } from './skill-frontmatter';

describe('readFrontmatter', () => {
  it('reads the YAML between the --- lines verbatim, with CRLF and a BOM', () => {
    expect(readFrontmatter('\uFEFF---\r\nname: a\r\ndescription: "b: c"\r\nn: 1\r\n---\r\nbody')).toEqual({
      frontmatter: { name: 'a', description: 'b: c', n: 1 },
    });
  });

  it('keeps YAML 1.2 core typing: no timestamps', () => {
    expect(readFrontmatter('---\nname: a\ndate: 2026-01-01\n---\n')).toEqual({
      frontmatter: { name: 'a', date: '2026-01-01' },
    });
  });

  it('names what is wrong', () => {
    expect(readFrontmatter('# title')).toEqual({ problem: expect.stringContaining('frontmatter missing') });
    expect(readFrontmatter('---\nname: a\n')).toEqual({ problem: expect.stringContaining('unterminated') });
    expect(readFrontmatter('---\nname: a\nname: b\n---\n')).toEqual({
      problem: expect.stringContaining('unparseable'),
    });
    expect(readFrontmatter('---\n- a\n---\n')).toEqual({ problem: 'frontmatter must be a YAML mapping' });
  });
});
