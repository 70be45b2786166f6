import { autocompletion, type Completion, type CompletionContext } from '@codemirror/autocomplete';
import { operatorExpected, VALUE_IN_QUOTES } from '../../../src/editor/completion-context.js';
import { knownValues } from './known-values.js';
import {
  customerFields,
  customerFunctions,
  fieldInfo,
  functionInfo,
  type NameInfo,
  operatorInfos,
  type Profile,
} from './names.js';

// Completion of field and function names where an operand starts, of operators after one, and of known
// values inside the quotes of a comparison (`http.request.method eq "P…`). Each entry shows its type or
// signature, where it is available, and whether it is deprecated; names the chosen plan and phase do not
// allow are offered last.

function completionOf(info: NameInfo): Completion {
  const notes = [
    info.deprecated,
    info.allowed ? undefined : 'not available with this plan/phase',
    info.availability,
  ];
  return {
    label: info.name,
    type: info.kind === 'field' ? 'variable' : info.kind === 'function' ? 'function' : 'keyword',
    detail: info.detail,
    info: [info.description, ...notes].filter(Boolean).join('\n') || undefined,
    boost: info.allowed ? (info.deprecated ? -1 : 0) : -2,
    apply: info.kind === 'function' ? `${info.name}(` : undefined,
  };
}

export function completions(profile: () => Profile) {
  return autocompletion({
    activateOnTyping: true,
    override: [
      (context: CompletionContext) => {
        const before = context.state.sliceDoc(Math.max(0, context.pos - 300), context.pos);
        const value = VALUE_IN_QUOTES.exec(before);
        if (value) {
          const known = knownValues(value[1] as string);
          if (!known) return null;
          return {
            from: context.pos - (value[2] as string).length,
            options: known.values.map((text) => ({ label: text, type: 'constant', detail: known.what })),
            validFor: /^[\w-]*$/,
          };
        }
        const word = context.matchBefore(/[A-Za-z_][\w.]*|[=!<>&|^~]+/);
        const start = word ? word.from : context.pos;
        if (!word && !context.explicit) return null;
        const prefix = before.slice(0, before.length - (context.pos - start));
        const current = profile();
        if (operatorExpected(prefix))
          return {
            from: start,
            options: operatorInfos(current).map(completionOf),
            validFor: /^[\w=!<>&|^~]*$/,
          };
        return {
          from: start,
          options: [
            ...customerFields().map((field) => completionOf(fieldInfo(field, current))),
            ...customerFunctions().map((fn) => completionOf(functionInfo(fn, current))),
          ],
          validFor: /^[\w.]*$/,
        };
      },
    ],
  });
}
