import { type ValidateResult, validate } from '../../src/check/validate.js';
import type { Phase, Plan } from '../../src/scheme/profile.js';
import { prepareFor } from './regex-loading.js';

// One validation per text and profile, shared by the editor's underlines, the diagnostics list and the
// evaluation, so that all three show the same result.

let last: { key: string; result: Promise<ValidateResult> } | undefined;

export function analyse(source: string, plan: Plan, phase: Phase): Promise<ValidateResult> {
  const key = JSON.stringify([source, plan, phase]);
  if (last?.key !== key) last = { key, result: checked(source, plan, phase) };
  return last.result;
}

async function checked(source: string, plan: Plan, phase: Phase): Promise<ValidateResult> {
  try {
    await prepareFor(source);
  } catch {
    // RE2 could not be fetched (a page opened from disk): the library then checks regexes by their syntax
    // only, and says so when one has to run (docs/web.md).
  }
  return validate(source, { plan, phase });
}
