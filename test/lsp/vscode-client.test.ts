import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PHASES, PLANS } from '../../src/scheme/profile.js';

// The VS Code client (editors/vscode) is built on its own, outside the project's build; what it declares
// must still agree with the server: the settings it reads, the documents it sends.

const manifest = JSON.parse(
  readFileSync(new URL('../../editors/vscode/package.json', import.meta.url), 'utf8'),
);

describe('editors/vscode', () => {
  it('offers exactly the plans and phases the server knows', () => {
    const properties = manifest.contributes.configuration.properties;
    expect(properties['cfrules.plan'].enum).toEqual([null, ...PLANS]);
    expect(properties['cfrules.phase'].enum).toEqual([null, ...PHASES]);
  });

  it('declares the cfrules language and activates on the documents the server reads', () => {
    expect(manifest.contributes.languages).toContainEqual(
      expect.objectContaining({ id: 'cfrules', extensions: ['.cfrules'] }),
    );
    for (const event of ['onLanguage:cfrules', 'onLanguage:json', 'onLanguage:terraform'])
      expect(manifest.activationEvents).toContain(event);
  });

  it('pins its dependencies and is never published', () => {
    expect(manifest.private).toBe(true);
    for (const version of Object.values({ ...manifest.dependencies, ...manifest.devDependencies }))
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
