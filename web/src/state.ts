import { PHASES, type Phase, PLANS, type Plan } from '../../src/scheme/profile.js';

// The playground's state, all of it in the URL fragment, so that a link reproduces the case exactly:
// `#` then URL-search-style parameters (`mode`, `plan`, `phase`, `expr`, `request`, `zone`), each value
// percent-encoded. The request and the zone are their JSON text as the user wrote it.

export type Mode = 'expression' | 'zone';

export interface PlaygroundState {
  mode: Mode;
  plan: Plan;
  phase: Phase;
  expression: string;
  /** The sample request's JSON (docs/request.md), as the form writes it. */
  request: string;
  /** The zone file's JSON text (docs/engine.md), for zone mode. */
  zone: string;
}

/** The state a fragment describes; what it leaves out (or gets wrong) comes from `defaults`. */
export function readFragment(fragment: string, defaults: PlaygroundState): PlaygroundState {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const plan = params.get('plan');
  const phase = params.get('phase');
  const mode = params.get('mode');
  return {
    mode: mode === 'zone' || mode === 'expression' ? mode : defaults.mode,
    plan: (PLANS as readonly string[]).includes(plan ?? '') ? (plan as Plan) : defaults.plan,
    phase: (PHASES as readonly string[]).includes(phase ?? '') ? (phase as Phase) : defaults.phase,
    expression: params.get('expr') ?? defaults.expression,
    request: params.get('request') ?? defaults.request,
    zone: params.get('zone') ?? defaults.zone,
  };
}

/** The fragment for `state` (with its `#`); the zone is left out in expression mode to keep links short. */
export function writeFragment(state: PlaygroundState): string {
  const params = new URLSearchParams({
    mode: state.mode,
    plan: state.plan,
    phase: state.phase,
    expr: state.expression,
    request: state.request,
  });
  if (state.mode === 'zone') params.set('zone', state.zone);
  // URLSearchParams writes spaces as `+`; %20 reads the same and survives more chat clients.
  return `#${params.toString().replaceAll('+', '%20')}`;
}
