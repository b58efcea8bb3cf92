/**
 * An error answered by the API: its `type`, a message meant for people, and, for a refused
 * change, what is wrong with each field it names (`model_errors`), for a form to show beside them.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
  ) {
    super(message);
  }
}
