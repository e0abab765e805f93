/**
 * The body of an action that takes no fields (rotate a signing key, test a webhook, redeliver):
 * none or `{}`. Like every admin body it is whitelisted, so any field is 400 `validation-error`.
 */
export class NoFieldsDto {}
