// teacher-api.js: the admin API (docs/operations.md, "Class mode") as the
// teacher's page and the wall call it: the token comes from the page's address
// (`#token=...`, which browsers never send to the server) and goes with every
// request as `Authorization: Bearer`. Answers are JSON; a refusal rejects with
// ApiError, carrying the API's error code and message.

/** The token in the page's address (`#token=TOKEN`), or "" when there is none. */
export function tokenFromFragment(hash = location.hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("token")?.trim() ?? "";
}

/** The API refused, or could not be reached (`code` "network", `status` 0). */
export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body; // the API's whole answer (`problems` of bad_names), or null
  }

  /** The token is missing or wrong: nothing the page does can work. */
  get unauthorized() {
    return this.status === 401;
  }
}

export class AdminApi {
  constructor(token) {
    this.token = token;
  }

  /** GET `path`; resolves to the JSON answer. Works for the public API too. */
  get(path) {
    return this.call("GET", path);
  }

  /** POST `path` with `body` as JSON (none if null); resolves to the JSON answer. */
  post(path, body = null) {
    return this.call("POST", path, body);
  }

  async call(method, path, body = null) {
    const response = await this.fetch(method, path, body);
    return response.json();
  }

  /**
   * Fetch an export and save it as `fileName`. A plain link cannot send the
   * token, so the file is fetched with it and handed to the browser as a Blob.
   */
  async download(path, fileName) {
    const response = await this.fetch("GET", path);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has taken the file once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  /** The response to a request; ApiError unless it answered 2xx. */
  async fetch(method, path, body = null) {
    const headers = { Authorization: `Bearer ${this.token}` };
    const init = { method, headers, cache: "no-store" };
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch {
      throw new ApiError(0, "network", "the server did not answer: is it running?");
    }
    if (response.ok) return response;
    let error = null;
    try {
      error = await response.json();
    } catch {
      // Not the API's JSON (a route that does not exist answers plain text).
    }
    const code = error?.error ?? (response.status === 404 ? "not_found" : "http_error");
    const message = error?.message ?? `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(response.status, code, message, error);
  }
}

/** An API refusal in words for people, capitalised. */
export function errorText(error) {
  const message = error?.message || "something went wrong";
  return message.charAt(0).toUpperCase() + message.slice(1);
}
