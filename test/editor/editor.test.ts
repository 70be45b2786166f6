import { describe, expect, it } from 'vitest';
import { completionPlace, operatorExpected } from '../../src/editor/completion-context.js';
import { describeName, signatureParts } from '../../src/editor/names.js';
import { tokenCategories } from '../../src/editor/token-categories.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

// The editor knowledge shared by the playground and the language server.

describe('completionPlace', () => {
  it('tells names, operators and known values apart', () => {
    expect(completionPlace('ssl and http.req')).toEqual({ kind: 'name', typed: 'http.req' });
    expect(completionPlace('http.host ')).toEqual({ kind: 'operator', typed: '' });
    expect(completionPlace('http.host e')).toEqual({ kind: 'operator', typed: 'e' });
    expect(completionPlace('http.host eq ')).toEqual({ kind: 'name', typed: '' });
    expect(completionPlace('http.request.method eq "PO')).toEqual({
      kind: 'value',
      field: 'http.request.method',
      typed: 'PO',
    });
    expect(completionPlace('ip.src.country in {"FR" "D')).toEqual({
      kind: 'value',
      field: 'ip.src.country',
      typed: 'D',
    });
    expect(operatorExpected('not ')).toBe(false);
  });
});

describe('signatureParts', () => {
  it('gives where each parameter is written in the label', () => {
    for (const fn of cloudflareScheme.functions.values()) {
      const { label, parameters } = signatureParts(fn);
      expect(label.startsWith(`${fn.name}(`)).toBe(true);
      const count = fn.params.length + (fn.optional?.length ?? 0) + (fn.variadic ? 1 : 0);
      expect(parameters).toHaveLength(count);
      for (const [start, end] of parameters) expect(label.slice(start, end)).toMatch(/^(\.\.\.)?\w+: .+\??$/);
    }
  });
});

describe('describeName', () => {
  it('describes without a profile as allowed everywhere', () => {
    expect(describeName('http.request.body.raw', {})?.allowed).toBe(true);
    expect(describeName('http.request.body.raw', { plan: 'pro' })?.allowed).toBe(false);
    expect(describeName('matches', { plan: 'free' })?.allowed).toBe(false);
  });
});

describe('tokenCategories', () => {
  it('colours calls, fields, operators and literals from the lexer', () => {
    expect(tokenCategories('lower(http.host) in {"a"} and ip.src in $office').map((t) => t.category)).toEqual(
      ['function', 'field', 'operator', 'string', 'keyword', 'field', 'operator', 'list'],
    );
  });
});
