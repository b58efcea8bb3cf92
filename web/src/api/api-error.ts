/**
 * An error answered by the API: its `type`, a message meant for people, for a refused change what
 * is wrong with each field it names (`model_errors`), for a form to show beside them, and the
 * `data` some errors carry (the second step of a sign-in: which methods the person may use).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}
