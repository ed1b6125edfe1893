import { LIMITS } from '../contract/limits.ts';
import { MAIL_ADDRESS_MAX_CHARS } from '../mail/address.ts';
import type { Session } from '../settings/sessions.ts';
import { SIGN_IN_LINK_LIFETIME_MINUTES } from '../settings/sign-in.ts';
import { type Html, html } from './html.ts';
import { csrfField, PAGE_PATHS } from './layout.ts';

/** What deleting an account does, said on the Account page and on the page that asks to confirm. */
const DELETION_CONSEQUENCES = html`<ul>
<li>Every API key of the account is revoked at once: requests that send one are refused with 401.</li>
<li>Every session ends, on every device, this one included, and unused sign-in links stop working.</li>
<li>Your email address is removed from the account. You can sign up again with it later, as a new account.</li>
<li>Unused credits are lost: they are not refunded or moved to another account.</li>
<li>The records of documents made in the last ${LIMITS.historyRetentionDays} days (template, time, reference, credits; never their fields or PDFs) are kept until their ${LIMITS.historyRetentionDays} days end, as every record is, without your address; nobody can see them any more, and then they are deleted.</li>
</ul>`;

function errorNote(message: string | undefined): Html {
  return message ? html`<p class="error" role="alert" id="form-error">${message}</p>` : html``;
}

export function accountView(input: { session: Session; newEmail?: string; error?: string }): Html {
  const { session } = input;
  return html`<h1>Account</h1>
<h2>Email address</h2>
<p>Sign-in links are sent to <strong>${session.account.email}</strong>.</p>
<p>To change it, enter the new address: we email it a link, and the address changes when you follow that link (within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes). We tell the current address when you ask, and once it has changed.</p>
${errorNote(input.error)}
<form method="post" action="${PAGE_PATHS.accountEmail}" class="stacked">
${csrfField(session)}
<label for="new-email">New email address</label>
<input id="new-email" name="email" type="email" autocomplete="email" required maxlength="${MAIL_ADDRESS_MAX_CHARS}" value="${input.newEmail ?? ''}"${
    input.error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
  }>
<button type="submit">Email me a link to confirm</button>
</form>
<h2>Delete the account</h2>
<p>Deleting the account cannot be undone:</p>
${DELETION_CONSEQUENCES}
<p><a class="button secondary" href="${PAGE_PATHS.accountDelete}">Delete the account…</a></p>`;
}

export function emailChangeSentView(newEmail: string): Html {
  return html`<h1>Check your new address</h1>
<p>We have emailed <strong>${newEmail}</strong> a link. Your address changes when you follow it, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes; until then, sign-in links still go to your current address.</p>
<p><a href="${PAGE_PATHS.account}">Back to Account</a></p>`;
}

/** The page of an address-change link: what it changes, and a button, so that a mail scanner's visit changes nothing. */
export function confirmEmailChangeView(input: {
  token: string;
  session: Session | undefined;
  from: string;
  to: string;
  path: string;
}): Html {
  return html`<h1>Change your email address</h1>
<p>Change the address of the account <strong>${input.from}</strong> to <strong>${input.to}</strong>. Sign-in links will go to the new address.</p>
<form method="post" action="${input.path}">
${csrfField(input.session)}
<input type="hidden" name="token" value="${input.token}">
<button type="submit">Change my email address</button>
</form>`;
}

export function emailChangedView(to: string, signedIn: boolean): Html {
  return html`<h1>Your email address is changed</h1>
<p>Sign-in links now go to <strong>${to}</strong>. We have told your previous address.</p>
<p><a href="${signedIn ? PAGE_PATHS.account : PAGE_PATHS.signIn}">${signedIn ? 'Back to Account' : 'Sign in'}</a></p>`;
}

export function emailChangeExpiredView(): Html {
  return html`<h1>This link has expired or was already used</h1>
<p>A link to change your address works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes. Ask for another on the <a href="${PAGE_PATHS.account}">Account</a> page.</p>`;
}

export function addressTakenView(to: string): Html {
  return html`<h1>This address belongs to another account</h1>
<p>Another account has the address <strong>${to}</strong>, so the address was not changed. Use another address, or delete the other account first.</p>
<p><a href="${PAGE_PATHS.account}">Back to Account</a></p>`;
}

export function deleteAccountView(input: { session: Session; error?: string }): Html {
  return html`<h1>Delete your account?</h1>
<p>Deleting the account <strong>${input.session.account.email}</strong> cannot be undone:</p>
${DELETION_CONSEQUENCES}
${errorNote(input.error)}
<form method="post" action="${PAGE_PATHS.accountDelete}" class="stacked">
${csrfField(input.session)}
<label for="confirm-email">To confirm, type your email address</label>
<input id="confirm-email" name="email" type="email" autocomplete="off" required maxlength="${MAIL_ADDRESS_MAX_CHARS}"${
    input.error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
  }>
<button type="submit" class="danger">Delete my account</button>
</form>
<p><a href="${PAGE_PATHS.account}">Cancel</a></p>`;
}

export function accountDeletedView(): Html {
  return html`<h1>Your account is deleted</h1>
<p>Its keys are revoked, its sessions ended and its address removed. Thank you for using the service.</p>
<p><a href="${PAGE_PATHS.home}">Home</a></p>`;
}
