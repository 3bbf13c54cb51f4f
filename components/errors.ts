import type { GuardIssue } from '../protocol/runtime/json-guard.ts';

/**
 * Codes of the errors the SDK throws for misuse (spec, Errors 1): invalid options, an invalid mount
 * target, a step called out of order, an element not available yet. An operation that fails
 * (a network error, a declined card, a timeout) also rejects with an SdkError, whose code then comes
 * from the service or the frame, and emits `cpe:error` with the same code and message.
 */
export type SdkErrorCode =
  | 'invalid_options'
  | 'invalid_session'
  | 'create_server_intent_failed'
  | 'invalid_mount_target'
  | 'invalid_state'
  | 'not_available'
  | (string & {});

/**
 * The SDK error: thrown (or rejected) for misuse the integrator must fix, with a message that names
 * the option and says what to change. Never carries a key, token or card data.
 */
export class SdkError extends Error {
  override name = 'SdkError';

  constructor(
    readonly code: SdkErrorCode,
    message: string,
    /** The option path at fault, such as `pubKey` or `middleware.attach`, when there is one. */
    readonly option?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}


const KNOWN_SPELLINGS: Record<string, string> = { authorize: 'authorise', verifyauth: 'verifyAuth', publicKey: 'pubKey' };

/**
 * One readable message from the guards' issues (protocol/runtime/json-guard.ts), one sentence per option at
 * fault, each the option's name and the `message` its schema carries:
 * `createElements: option "pubKey" must be your public key, a string starting "pk_".`
 */
export function describeIssues(
  where: string,
  subject: string,
  issues: readonly GuardIssue[],
  rootName = `${subject}s`,
): { message: string; option?: string } {
  const seen = new Set<string>();
  const sentences: string[] = [];
  let first: string | undefined;
  for (const issue of issues) {
    const path = issue.path.join('.');
    if (seen.has(path)) continue;
    seen.add(path);
    first ??= path || undefined;
    const name = path ? `${subject} "${path}"` : rootName;
    if (issue.keys) {
      const hints = issue.keys.map((key) => (KNOWN_SPELLINGS[key] ? `"${key}" (did you mean "${KNOWN_SPELLINGS[key]}"?)` : `"${key}"`));
      sentences.push(`${name} has unknown key${issue.keys.length > 1 ? 's' : ''} ${hints.join(', ')}`);
    } else {
      sentences.push(`${name} ${issue.message}`);
    }
  }
  return { message: `${where}: ${sentences.join('; ')}.`, option: first };
}
