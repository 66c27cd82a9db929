import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { html } from "../../lib/html.js";
import { page } from "../views/html.js";

export interface LoginPageInput {
  /** Where the form posts, relative to the page's own address. */
  action: string;
  formToken: string;
  /** Why the last attempt failed, safe to show. */
  problem?: string;
  /** The name typed last time, so only the password is typed again. */
  username?: string;
}

/** The login form: plain HTML, no script. Never echoes a password. */
export function renderLoginPage(input: LoginPageInput): string {
  const problem = input.problem && html`<p class="notice error" id="login-problem">${input.problem}</p>`;
  return page(
    "scanarr — log in",
    html`<h1>scanarr — log in</h1>
${problem}<form method="post" action="${input.action}" id="login" style="flex-direction:column;max-width:20rem">
<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${input.formToken}">
<label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required value="${input.username ?? ""}">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit" id="login-submit">Log in</button></form>
<p><small>The login set with <code>scanarr passwd</code>. Sessions live in memory: a restart of scanarr logs you out.</small></p>`,
  );
}
