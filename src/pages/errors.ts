/** A Settings request answered with an error page: its status, heading and one plain sentence or two. */
export class PageError extends Error {
  readonly status: number;
  readonly title: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, title: string, message: string, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.status = status;
    this.title = title;
    this.headers = headers;
  }
}
