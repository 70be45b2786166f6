// The library's public API.

export { LINTS, type LintCode } from './check/lints.js';
export type * from './check/typed-ast.js';
export {
  type ExpressionKind,
  type ListKind,
  MAX_EXPRESSION_LENGTH,
  type ValidateOptions,
  type ValidateResult,
  validate,
} from './check/validate.js';
export {
  type CompiledZone,
  type CompileZoneOptions,
  type CompileZoneResult,
  compileZone,
  type FinalAction,
  formatTrace,
  type RuleName,
  type RulesetTrace,
  type RuleTrace,
  readZone,
  type SimulateOptions,
  type SimulationResult,
  STAGES,
  type Stage,
  type StageTrace,
  simulate,
  type TraceTreeOptions,
  ZoneError,
  type ZoneFile,
  type ZoneProblem,
} from './engine/index.js';
export {
  type CompileOptions,
  type CompileResult,
  compile,
  EvaluationError,
  evaluate,
  type Filter,
} from './eval/compile.js';
export type { EvaluationInput, FieldValues, RequestContext } from './eval/context.js';
export { type Explanation, explain, formatExplanation } from './eval/explain.js';
export { ListError, type ListItems } from './eval/lists.js';
export type * from './lang/ast.js';
export {
  type Diagnostic,
  type DiagnosticCode,
  type FormatDiagnosticOptions,
  formatDiagnostic,
  type Severity,
} from './lang/diagnostics.js';
export type { FormatOptions } from './lang/format.js';
export type { HookVerdict, LiteralPlace, LiteralReading, ParseHooks } from './lang/hooks.js';
export { type ParseOptions, type ParseResult, parse } from './lang/parse.js';
export { ExpressionSyntaxError, format } from './lang/source.js';
export {
  type CompiledRegex,
  javascriptRegexEngine,
  type RegexEngine,
  type RegexMatch,
  re2RegexEngine,
  UnsupportedPattern,
} from './regex/index.js';
export {
  DEFAULT_BODY_LIMIT,
  DERIVED_FIELDS,
  EDGE_KEYS,
  type FieldDeriver,
  fieldDeriver,
  fieldValue,
  formatRequestProblem,
  type HeaderLine,
  type HttpMessage,
  REQUEST_KEYS,
  type RequestProblem,
  readSampleRequest,
  type SampleRequest,
} from './request/index.js';
export {
  type ArgumentKind,
  cloudflareFunctions,
  type FunctionDefinition,
  type LiteralValue,
  type Parameter,
  type ParameterType,
} from './scheme/functions.js';
export type { IpAddress, IpRange } from './scheme/ip.js';
export {
  type Availability,
  PHASES,
  type Phase,
  PLANS,
  type Plan,
  parsePhase,
  parsePlan,
} from './scheme/profile.js';
export {
  cloudflareScheme,
  defineScheme,
  type FieldDefinition,
  type ListDefinition,
  type Scheme,
  type SchemeDefinition,
  SchemeError,
} from './scheme/scheme.js';
export { type PrimitiveType, parseType, type Type, typeName } from './scheme/types.js';
export { bytesOf, textOf, type Value, type ValueMap } from './scheme/values.js';
