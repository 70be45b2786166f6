import { COMPARISON_OPERATORS, LOGICAL_OPERATORS, spellingsOf } from '../lang/operators.js';
import type { FunctionDefinition, Parameter } from '../scheme/functions.js';
import {
  availabilityPhases,
  isFieldAvailableIn,
  type Phase,
  type Plan,
  planAtLeast,
  planNames,
} from '../scheme/profile.js';
import { cloudflareScheme, type FieldDefinition } from '../scheme/scheme.js';
import { typeName } from '../scheme/types.js';

// What an editor says about a name (completion details, hover documentation), read from the library's
// catalogue: the field catalogue, the function signatures, the operator table and the plan/phase rules.
// Shared by the browser playground (web/src/editor) and the language server (src/lsp), so that both say
// the same things. Managed-only names (waf.*) are left out: a customer's rule cannot use them.

export interface NameInfo {
  name: string;
  kind: 'field' | 'function' | 'operator' | 'list';
  /** `Bytes`, `Array<String>`, or a function's signature. */
  detail: string;
  description?: string;
  /** Plan and phase availability, in words; undefined when the name is available everywhere. */
  availability?: string;
  /** Whether the profile (plan and phase) allows the name; completion ranks the others last. */
  allowed: boolean;
  deprecated?: string;
}

/** Where the expression runs; a part left out (a language server without settings) restricts nothing. */
export interface Profile {
  plan?: Plan;
  phase?: Phase;
}

const planAllows = (profile: Profile, required: Plan | undefined): boolean =>
  !required || !profile.plan || planAtLeast(profile.plan, required);

const PHASE_COUNT_EVERYWHERE = 6;

function phasesText(phases: readonly Phase[]): string {
  return phases.length > PHASE_COUNT_EVERYWHERE
    ? `${phases.slice(0, PHASE_COUNT_EVERYWHERE).join(', ')} and ${phases.length - PHASE_COUNT_EVERYWHERE} more`
    : phases.join(', ');
}

function availabilityText(plan: Plan | undefined, phases: readonly Phase[] | undefined): string | undefined {
  const parts: string[] = [];
  if (plan && plan !== 'free') parts.push(`${planNames[plan]} plan and above`);
  if (phases) parts.push(`phases: ${phasesText(phases)}`);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

export function fieldInfo(field: FieldDefinition, profile: Profile): NameInfo {
  const phases = field.availability ? availabilityPhases[field.availability] : undefined;
  return {
    name: field.name,
    kind: 'field',
    detail: typeName(field.type),
    description: field.description,
    availability: availabilityText(
      field.plan,
      field.availability && field.availability !== 'http' ? phases : undefined,
    ),
    allowed: planAllows(profile, field.plan) && (!profile.phase || isFieldAvailableIn(field, profile.phase)),
    deprecated: field.deprecated ? `deprecated: use ${field.deprecated.replacement}` : undefined,
  };
}

const parameterText = (parameter: Parameter): string =>
  `${parameter.name}: ${parameter.types.map((type) => (typeof type === 'string' ? type : typeName(type))).join(' | ')}`;

/** A function's signature as text, with where each parameter is written in it (signature help). */
export interface SignatureParts {
  label: string;
  /** `[start, end)` of each parameter in `label`, in order; a variadic parameter is the last. */
  parameters: [number, number][];
}

export function signatureParts(fn: FunctionDefinition): SignatureParts {
  const params = [
    ...fn.params.map(parameterText),
    ...(fn.optional ?? []).map((parameter) => `${parameterText(parameter)}?`),
    ...(fn.variadic ? [`...${parameterText(fn.variadic)}`] : []),
  ];
  const returns = typeof fn.returns === 'function' ? 'depends on the arguments' : typeName(fn.returns);
  let label = `${fn.name}(`;
  const parameters: [number, number][] = [];
  params.forEach((text, i) => {
    if (i > 0) label += ', ';
    parameters.push([label.length, label.length + text.length]);
    label += text;
  });
  return { label: `${label}) → ${returns}`, parameters };
}

export const signatureOf = (fn: FunctionDefinition): string => signatureParts(fn).label;

export function functionInfo(fn: FunctionDefinition, profile: Profile): NameInfo {
  return {
    name: fn.name,
    kind: 'function',
    detail: signatureOf(fn),
    description: fn.rewriteOnly
      ? 'Only in rewrite expressions (Transform Rules, dynamic redirects).'
      : undefined,
    availability: availabilityText(fn.plan, fn.phases),
    allowed:
      planAllows(profile, fn.plan) && (!fn.phases || !profile.phase || fn.phases.includes(profile.phase)),
  };
}

/** The fields a customer's rule may name, Cloudflare's catalogue order. */
export const customerFields = (): FieldDefinition[] =>
  [...cloudflareScheme.fields.values()].filter((field) => !field.managedOnly);

export const customerFunctions = (): FunctionDefinition[] =>
  [...cloudflareScheme.functions.values()].filter((fn) => !fn.managedOnly);

/** Every spelling of every operator, with what it compares. */
export function operatorInfos(profile: Profile): NameInfo[] {
  const infos: NameInfo[] = [];
  for (const [op, entry] of Object.entries(COMPARISON_OPERATORS)) {
    const allowed = op !== 'matches' || planAllows(profile, 'business');
    for (const spelling of spellingsOf(op as keyof typeof COMPARISON_OPERATORS))
      infos.push({
        name: spelling,
        kind: 'operator',
        detail: `comparison (${entry.types.join(', ')})`,
        description: op === spelling ? undefined : `same as ${op}`,
        availability: op === 'matches' ? 'Business plan and above' : undefined,
        allowed,
      });
  }
  for (const { op } of LOGICAL_OPERATORS)
    infos.push({ name: op, kind: 'operator', detail: 'logical', allowed: true });
  infos.push({ name: 'not', kind: 'operator', detail: 'logical', allowed: true });
  return infos;
}

/** Everything the editor knows about `name` (hover). */
export function describeName(name: string, profile: Profile): NameInfo | undefined {
  const field = cloudflareScheme.fields.get(name);
  if (field && !field.managedOnly) return fieldInfo(field, profile);
  const fn = cloudflareScheme.functions.get(name);
  if (fn && !fn.managedOnly) return functionInfo(fn, profile);
  return operatorInfos(profile).find((info) => info.name === name);
}
