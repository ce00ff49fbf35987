import { addUnderUnreleased } from './changelog.rule';

describe('addUnderUnreleased', () => {
  const head = '# Changelog\n\nIntro.\n\n';
  const released = '## [0.1.0]\n\n### Added\n- `get_greeting`: the sample.\n';

  it('opens an Added list under an empty [Unreleased]', () => {
    const text = `${head}## [Unreleased]\n\n${released}`;
    expect(addUnderUnreleased(text, 'Tool `find_order`.')).toBe(
      `${head}## [Unreleased]\n\n### Added\n- Tool \`find_order\`.\n\n${released}`,
    );
  });

  it('appends to the existing Added list of [Unreleased], after its wrapped lines, not to a released one', () => {
    const text = `${head}## [Unreleased]\n\n### Added\n- One.\n  wrapped.\n\n### Fixed\n- Two.\n\n${released}`;
    expect(addUnderUnreleased(text, 'Three.')).toBe(
      `${head}## [Unreleased]\n\n### Added\n- One.\n  wrapped.\n- Three.\n\n### Fixed\n- Two.\n\n${released}`,
    );
  });

  it('leaves a changelog without [Unreleased] alone', () => {
    expect(addUnderUnreleased(`${head}${released}`, 'X.')).toBeUndefined();
  });
});
